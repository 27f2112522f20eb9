"""The trace model: what one run recorded, as plain data, and the questions asked of it."""
