import unittest

from retry import delays


class DelaysTest(unittest.TestCase):
    def test_growth_and_cap(self):
        self.assertEqual(delays(5), [0.5, 1.5, 4.5, 13.5, 20.0])

    def test_attempt_limit(self):
        self.assertEqual(len(delays(50)), 8)
        self.assertEqual(delays(50)[-1], 20.0)

    def test_edges(self):
        self.assertEqual(delays(0), [])
        with self.assertRaises(ValueError):
            delays(-1)


if __name__ == "__main__":
    unittest.main()
