"""Tests of the xlalens command line, its configuration, discovery, cache and output formats."""
