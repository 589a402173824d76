"""What the pages and the API answer alike, below both: a request applied once per key, and the
answer to a check of cards. Neither ``web`` nor ``api`` imports the other; what both need is here.
"""
