package dev.payonce.idempotency;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * docs/design.md section 11, "A claim never commits after its 503": the claim's deadline
 * is half the driver's socket timeout, read as the driver reads it.
 */
class ClaimDeadlineTests {

	@Test
	void isHalfTheSocketTimeout() {
		assertThat(ClaimDeadline.forSocketTimeout(10).bound()).contains(Duration.ofSeconds(5));
		assertThat(ClaimDeadline.forSocketTimeout(3).bound()).contains(Duration.ofMillis(1500));
	}

	@Test
	void setsNoBoundWithoutASocketTimeout() {
		assertThat(ClaimDeadline.forSocketTimeout(0).bound()).isEmpty();
	}

	@Test
	void refusesASocketTimeoutTooShortToLeaveAClaimItsDeadline() {
		assertThatIllegalStateException().isThrownBy(() -> ClaimDeadline.forSocketTimeout(1))
			.withMessageContaining("socketTimeout (1 s,")
			.withMessageContaining("docs/design.md section 11");
		assertThatIllegalStateException().isThrownBy(() -> ClaimDeadline.forSocketTimeout(-5));
	}

	@Test
	void readsTheSocketTimeoutFromTheUrlBeforeThePoolsProperties() {
		Properties pool = new Properties();
		pool.setProperty("socketTimeout", "10");

		assertThat(ClaimDeadline.socketTimeoutSeconds("jdbc:postgresql://db:5432/payonce", pool)).isEqualTo(10);
		assertThat(ClaimDeadline.socketTimeoutSeconds("jdbc:postgresql://db:5432/payonce?socketTimeout=300", pool))
			.isEqualTo(300);
		assertThat(ClaimDeadline.socketTimeoutSeconds("jdbc:postgresql://db:5432/payonce", new Properties())).isZero();
	}

	@Test
	void refusesASocketTimeoutThatIsNotANumber() {
		Properties pool = new Properties();
		pool.setProperty("socketTimeout", "10s");

		assertThatIllegalStateException()
			.isThrownBy(() -> ClaimDeadline.socketTimeoutSeconds("jdbc:postgresql://db:5432/payonce", pool))
			.withMessageContaining("not a whole number of seconds");
	}

}
