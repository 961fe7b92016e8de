package dev.payonce.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Problems#echoed}: a client's name comes back whole up to
 * {@link Problems#MAX_ECHOED_NAME} characters, cut with {@code ...} beyond, and never cut
 * inside a surrogate pair.
 */
class ProblemsTests {

	@Test
	void echoesNamesOfUpTo64CharactersWhole() {
		assertThat(Problems.echoed("")).isEmpty();
		assertThat(Problems.echoed("amonut")).isEqualTo("amonut");
		assertThat(Problems.echoed("n".repeat(64))).isEqualTo("n".repeat(64));
		// An emoji ending exactly at the limit is whole.
		assertThat(Problems.echoed("x".repeat(62) + "\ud83d\ude00")).isEqualTo("x".repeat(62) + "\ud83d\ude00");
	}

	@Test
	void cutsLongerNamesAfter64Characters() {
		assertThat(Problems.echoed("n".repeat(65))).isEqualTo("n".repeat(64) + "...");
		assertThat(Problems.echoed("y".repeat(16_000))).isEqualTo("y".repeat(64) + "...");
	}

	@Test
	void neverCutsAnEmojiInHalf() {
		// The 64th character is the first half of an emoji: it goes with its second half.
		assertThat(Problems.echoed("x".repeat(63) + "\ud83d\ude00" + "tail")).isEqualTo("x".repeat(63) + "...");
		// An emoji that ends at the 64th character stays whole.
		assertThat(Problems.echoed("x".repeat(62) + "\ud83d\ude00" + "tail"))
			.isEqualTo("x".repeat(62) + "\ud83d\ude00...");
	}

	@Test
	void leavesALoneSurrogateTheClientSentAsItIs() {
		// Not a pair: nothing to keep together, the cut is at 64 as usual.
		assertThat(Problems.echoed("x".repeat(63) + "\ud83dabc")).isEqualTo("x".repeat(63) + "\ud83d...");
	}

}
