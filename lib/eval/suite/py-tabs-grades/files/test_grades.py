import unittest

from grades import letter, passed


class GradesTest(unittest.TestCase):
    def test_boundaries(self):
        self.assertEqual(letter(90), "A")
        self.assertEqual(letter(80), "B")
        self.assertEqual(letter(89), "B")
        self.assertEqual(letter(70), "C")
        self.assertEqual(letter(69), "F")
        self.assertTrue(passed(70))

    def test_range(self):
        with self.assertRaises(ValueError):
            letter(101)

    def test_still_tabs(self):
        with open("grades.py") as f:
            lines = f.read().splitlines()
        self.assertFalse([l for l in lines if l.startswith(" ")], "grades.py must stay indented with tabs")


if __name__ == "__main__":
    unittest.main()
