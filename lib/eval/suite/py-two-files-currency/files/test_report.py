import unittest

from invoice import Invoice, Line
from report import summary


class ReportTest(unittest.TestCase):
    def test_currency_shown(self):
        invoice = Invoice("A-1", [Line("tea", 2, 1.5)], "USD")
        self.assertEqual(summary(invoice), "Invoice A-1: 3.00 USD")

    def test_default_currency(self):
        invoice = Invoice("B-7", [Line("cake", 1, 4.25)])
        self.assertEqual(invoice.currency, "EUR")
        self.assertEqual(summary(invoice), "Invoice B-7: 4.25 EUR")

    def test_total_unchanged(self):
        self.assertEqual(Invoice("C", [Line("a", 3, 2.0), Line("b", 1, 0.5)]).total(), 6.5)


if __name__ == "__main__":
    unittest.main()
