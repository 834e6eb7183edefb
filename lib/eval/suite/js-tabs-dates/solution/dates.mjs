export function isLeapYear(year) {
	return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year, month) {
	if (!Number.isInteger(month) || month < 1 || month > 12) {
		throw new RangeError(`month must be 1 to 12, got ${month}`);
	}
	const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	if (month === 2 && isLeapYear(year)) {
		return 29;
	}
	return days[month - 1];
}
