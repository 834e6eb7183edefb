import unittest

from rle import decode, encode


class RleTest(unittest.TestCase):
    def test_encode(self):
        self.assertEqual(encode("aaabcc"), [("a", 3), ("b", 1), ("c", 2)])
        self.assertEqual(encode(""), [])
        self.assertEqual(encode("abab"), [("a", 1), ("b", 1), ("a", 1), ("b", 1)])

    def test_round_trip(self):
        for text in ["", "x", "zzzzzz", "aabbbaa  c", "héé"]:
            self.assertEqual(decode(encode(text)), text)

    def test_decode_rejects(self):
        with self.assertRaises(ValueError):
            decode([("a", 0)])
        with self.assertRaises(ValueError):
            decode([("ab", 2)])


if __name__ == "__main__":
    unittest.main()
