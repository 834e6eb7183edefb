def letter(score):
	"""The letter grade of a score from 0 to 100."""
	if score < 0 or score > 100:
		raise ValueError("score out of range")
	if score >= 90:
		return "A"
	if score > 80:
		return "B"
	if score > 70:
		return "C"
	return "F"


def passed(score):
	return letter(score) != "F"
