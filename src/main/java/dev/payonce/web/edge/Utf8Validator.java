package dev.payonce.web.edge;

/**
 * Checks bytes against UTF-8's well-formed byte sequences (Unicode Standard, table 3-7;
 * RFC 3629 section 4), a byte at a time, so that a body is checked as it streams.
 * Refused: overlong forms ({@code C0 AD} for {@code -}, {@code E0 80 AD},
 * {@code F0 80 80 AD}), encoded surrogates ({@code ED A0 80}), code points above U+10FFFF
 * ({@code F4 90 80 80}, {@code F5}..{@code FF}), a continuation byte with no lead, and a
 * sequence cut short. Java's and Jackson's decoders are not this strict about every one
 * of these: a decoded overlong form spells a different, valid text (RFC 3629 section 10).
 *
 * <p>
 * Not thread-safe: one validator per stream.
 */
final class Utf8Validator {

	private int remaining;

	private int lower = 0x80;

	private int upper = 0xBF;

	private long offset;

	/**
	 * Takes the next byte.
	 * @param value the byte
	 * @return {@code false} if the bytes so far cannot begin well-formed UTF-8
	 */
	boolean accept(byte value) {
		int b = value & 0xFF;
		this.offset++;
		if (this.remaining == 0) {
			if (b < 0x80) {
				return true;
			}
			if (b >= 0xC2 && b <= 0xDF) {
				this.remaining = 1;
			}
			else if (b == 0xE0) {
				expect(2, 0xA0, 0xBF);
			}
			else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
				this.remaining = 2;
			}
			else if (b == 0xED) {
				expect(2, 0x80, 0x9F);
			}
			else if (b == 0xF0) {
				expect(3, 0x90, 0xBF);
			}
			else if (b >= 0xF1 && b <= 0xF3) {
				this.remaining = 3;
			}
			else if (b == 0xF4) {
				expect(3, 0x80, 0x8F);
			}
			else {
				return false;
			}
			return true;
		}
		if (b < this.lower || b > this.upper) {
			return false;
		}
		this.remaining--;
		this.lower = 0x80;
		this.upper = 0xBF;
		return true;
	}

	/**
	 * Whether the bytes taken end on a character boundary.
	 * @return {@code false} if a sequence was cut short
	 */
	boolean isComplete() {
		return this.remaining == 0;
	}

	/**
	 * How many bytes were taken, the refused one included.
	 * @return a count from 1
	 */
	long offset() {
		return this.offset;
	}

	private void expect(int remaining, int lower, int upper) {
		this.remaining = remaining;
		this.lower = lower;
		this.upper = upper;
	}

	/**
	 * Whether bytes are well-formed UTF-8 as a whole.
	 * @param bytes the bytes
	 * @return {@code true} if every sequence is well-formed and none is cut short
	 */
	static boolean isWellFormed(byte[] bytes) {
		Utf8Validator validator = new Utf8Validator();
		for (byte b : bytes) {
			if (!validator.accept(b)) {
				return false;
			}
		}
		return validator.isComplete();
	}

}
