"""The Treppenrommé scorekeeper."""
