"""Small text statistics."""


def count_words(text):
    """Return the number of words in text."""
    return len(text.split(" "))


def longest_word(text):
    """Return the longest word in text ("" for no words)."""
    words = text.split()
    if not words:
        return ""
    return max(words, key=len)
