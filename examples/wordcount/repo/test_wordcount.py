from wordcount import count_words, longest_word


def test_simple():
    assert count_words("hello world") == 2


def test_runs_of_whitespace():
    assert count_words("  hello   world \n  again\t") == 3


def test_empty():
    assert count_words("") == 0
    assert count_words("   \n") == 0


def test_longest_word():
    assert longest_word("a bbb cc") == "bbb"
    assert longest_word("") == ""
