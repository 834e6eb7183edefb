import unittest

import text_utils


class SlugifyTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(text_utils.slugify("Hello, World!"), "hello-world")

    def test_runs_and_edges(self):
        self.assertEqual(text_utils.slugify("  --Already--slugged--  "), "already-slugged")
        self.assertEqual(text_utils.slugify("a  b\tc"), "a-b-c")
        self.assertEqual(text_utils.slugify(""), "")

    def test_max_length(self):
        self.assertEqual(text_utils.slugify("abc def ghi", max_length=5), "abc-d")
        self.assertEqual(text_utils.slugify("abc def ghi", max_length=4), "abc")
        self.assertEqual(len(text_utils.slugify("x" * 80)), 50)

    def test_title_case_unchanged(self):
        self.assertEqual(text_utils.title_case("hello world"), "Hello World")


if __name__ == "__main__":
    unittest.main()
