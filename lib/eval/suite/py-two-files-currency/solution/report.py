from invoice import Invoice


def summary(invoice: Invoice) -> str:
    """One line for the invoice list."""
    return f"Invoice {invoice.number}: {invoice.total():.2f} {invoice.currency}"
