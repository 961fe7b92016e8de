package dev.payonce;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Strings to hold a hand-written format check against the regular expression it replaces
 * (docs/performance.md): the edges of every character range the checks use, at every
 * position and length that matters.
 */
public final class FormatCandidates {

	/**
	 * Each side of every range and every single character the patterns allow, and traps.
	 */
	public static final String EDGES = "@AZ[`az{/09:;-_^.fg \t\n\u00e9\u0130\u212a\u017f\ud83d\ude00\u0000\u007f\uff21";

	private FormatCandidates() {
	}

	/** Every string of length 0, 1 and 2 over {@link #EDGES}. */
	public static List<String> shortStrings() {
		List<String> strings = new ArrayList<>();
		strings.add("");
		for (char a : EDGES.toCharArray()) {
			strings.add(String.valueOf(a));
			for (char b : EDGES.toCharArray()) {
				strings.add("" + a + b);
			}
		}
		return strings;
	}

	/**
	 * {@code value} with each edge character put at, inserted at and appended after each
	 * position.
	 */
	public static List<String> mutations(String value) {
		List<String> strings = new ArrayList<>();
		for (int i = 0; i < value.length(); i++) {
			for (char c : EDGES.toCharArray()) {
				strings.add(value.substring(0, i) + c + value.substring(i + 1));
				strings.add(value.substring(0, i) + c + value.substring(i));
			}
		}
		for (char c : EDGES.toCharArray()) {
			strings.add(value + c);
		}
		return strings;
	}

	/**
	 * {@code count} random variants of {@code value}: a few positions replaced by edge
	 * characters.
	 */
	public static List<String> random(String value, int count) {
		SplittableRandom random = new SplittableRandom(13);
		List<String> strings = new ArrayList<>();
		for (int n = 0; n < count; n++) {
			char[] chars = value.toCharArray();
			for (int changes = random.nextInt(3); changes > 0; changes--) {
				chars[random.nextInt(chars.length)] = EDGES.charAt(random.nextInt(EDGES.length()));
			}
			strings.add(new String(chars));
		}
		return strings;
	}

	/**
	 * Asserts that {@code check} accepts exactly what {@code pattern} matches among
	 * {@code candidates}, and that more than 100 of them are accepted (so the candidates
	 * reach the accepting side too).
	 */
	public static void assertSameAs(Pattern pattern, Predicate<String> check, List<String> candidates) {
		for (String candidate : candidates) {
			assertThat(check.test(candidate)).as(candidate).isEqualTo(pattern.matcher(candidate).matches());
		}
		assertThat(candidates.stream().filter(check).count()).as("accepted candidates").isGreaterThan(100);
	}

}
