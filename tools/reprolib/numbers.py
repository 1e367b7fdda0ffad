"""numbers - figures written for people: never in scientific notation.

Python's "g" format turns 1234567 into 1.23457e+06 and 0.00001 into 1e-05,
which a reader of a report or a checker's line has to decode. Large figures
are whole numbers with thousands separators (1,234,567), as the docs write
them; the rest keep a few significant digits, and tiny ones stay decimals.
"""


def readable(value, digits=4):
    """value as a person reads it: 1,234,567 / 12.35 / 0.000012."""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)		# nan, inf: as Python spells them
    text = f"{value:.{digits}g}"
    if "e" not in text:
        return text
    if abs(value) >= 1:
        return f"{value:,.0f}"
    return f"{value:.{digits + 6}f}".rstrip("0")
