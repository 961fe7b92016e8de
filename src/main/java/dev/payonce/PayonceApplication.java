package dev.payonce;

import java.time.Clock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

/**
 * Payonce: the payments API that cannot charge twice.
 *
 * <p>
 * See {@code README.md} for the idempotency contract and {@code docs/design.md} for the
 * full product contract.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PayonceApplication {

	/**
	 * The clock every module reads time from; UTC, injectable so that tests can move
	 * time.
	 * @return the system clock in UTC
	 */
	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

	public static void main(String[] args) {
		SpringApplication.run(PayonceApplication.class, args);
	}

}
