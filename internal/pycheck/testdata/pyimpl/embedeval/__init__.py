"""Minimal stand-in for the Python implementation's package, for the bridge's tests.

Only what check modules import is here: embedeval.models.CheckDetail and a few
embedeval.check_utils helpers, with the documented names and shapes. Written for
EmbedEval-Go's tests; not the Python implementation's code.
"""
