import unittest

from stats import mean, median


class MedianTest(unittest.TestCase):
    def test_odd(self):
        self.assertEqual(median([3, 1, 2]), 2)

    def test_even(self):
        self.assertEqual(median([4, 1, 3, 2]), 2.5)
        self.assertEqual(median([5, 1]), 3)

    def test_empty(self):
        with self.assertRaisesRegex(ValueError, "median of empty list"):
            median([])

    def test_mean_unchanged(self):
        self.assertEqual(mean([1, 2, 3, 4]), 2.5)


if __name__ == "__main__":
    unittest.main()
