from dataclasses import dataclass, field


@dataclass
class Line:
    description: str
    quantity: int
    unit_price: float


@dataclass
class Invoice:
    number: str
    lines: list[Line] = field(default_factory=list)
    currency: str = "EUR"

    def total(self) -> float:
        return sum(line.quantity * line.unit_price for line in self.lines)
