package dev.payonce.web;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalIdsTests {

	private static final String ID = "0b0a5f9e-3c1d-4e2f-8a7b-6c5d4e3f2a1b";

	@Test
	void theCanonicalSpellingNamesItsUuid() {
		assertThat(CanonicalIds.parse(ID)).contains(UUID.fromString(ID));
	}

	@Test
	void otherSpellingsOfTheSameUuidAndNonUuidsNameNothing() {
		assertThat(CanonicalIds.parse(ID.toUpperCase())).isEmpty();
		assertThat(CanonicalIds.parse("b0a5f9e-3c1d-4e2f-8a7b-6c5d4e3f2a1b")).isEmpty();
		assertThat(CanonicalIds.parse("1-1-1-1-1")).isEmpty();
		assertThat(CanonicalIds.parse("not-an-id")).isEmpty();
		assertThat(CanonicalIds.parse("")).isEmpty();
	}

}
