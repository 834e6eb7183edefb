import unittest

import tariffs


class ShippingTest(unittest.TestCase):
    def test_base(self):
        self.assertEqual(tariffs.shipping_cost(0.5), 4.90)
        self.assertEqual(tariffs.shipping_cost(2), 4.90)

    def test_started_kilograms(self):
        self.assertEqual(tariffs.shipping_cost(2.5), 6.00)
        self.assertEqual(tariffs.shipping_cost(4), 7.10)
        self.assertEqual(tariffs.shipping_cost(4.01), 8.20)

    def test_express_doubles(self):
        self.assertEqual(tariffs.shipping_cost(1, express=True), 9.80)
        self.assertEqual(tariffs.shipping_cost(4, express=True), 14.20)

    def test_invalid(self):
        with self.assertRaises(ValueError):
            tariffs.shipping_cost(0)

    def test_vat_unchanged(self):
        self.assertEqual(tariffs.vat_eh(100), 15.0)
        self.assertEqual(tariffs.vat_for("AB", 100), 10.0)


if __name__ == "__main__":
    unittest.main()
