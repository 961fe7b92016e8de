package dev.payonce.web.edge;

import java.util.HexFormat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of the HTTP edge that need no server: well-formed UTF-8 (Unicode table 3-7),
 * well-formed query strings, and the one form of {@code Allow}.
 */
class EdgeRulesTests {

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "", "2d", "7f", "c280", "c3a9", "dfbf", "e0a080", "e282ac", "ed9fbf", "ee8080", "efbfbf",
			"f0908080", "f09f9982", "f48fbfbf" })
	void acceptsEveryWellFormedSequence(String hex) {
		assertThat(Utf8Validator.isWellFormed(HexFormat.of().parseHex(hex))).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "c0ad", "c1a5", "c181", "c080", "e080ad", "e09fbf", "f08080ad", "f08fbfbf", "eda080",
			"edbfbf", "f4908080", "f5808080", "f8888080", "fe", "ff", "80", "bf", "e282", "f09f99", "c3", "c341",
			"e2e282ac" })
	void refusesEveryIllFormedSequence(String hex) {
		assertThat(Utf8Validator.isWellFormed(HexFormat.of().parseHex(hex))).isFalse();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "a=1", "a=%E2%82%AC&b=caf%C3%A9+x", "a=%25", "a", "a=%2B%20", "=", "&&" })
	void acceptsAWellFormedQuery(String query) {
		assertThat(QueryStringFilter.isWellFormed(query)).isTrue();
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "a=%ZZ", "a=%", "a=%2", "a=%G0", "a=%C0%AD", "a=%ED%A0%80", "a=%E2%82", "a=%FF",
			"x%0D%0Ay=1", "a=%00", "a=%7F", "a=%C2%85", "a=\u00e9" })
	void refusesAMalformedQuery(String query) {
		assertThat(QueryStringFilter.isWellFormed(query)).isFalse();
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = ';', value = { "GET, POST;GET, HEAD, POST, OPTIONS", "POST;POST, OPTIONS",
			"GET,HEAD,POST,OPTIONS;GET, HEAD, POST, OPTIONS", "OPTIONS,POST;POST, OPTIONS",
			"TRACE,GET;GET, HEAD, OPTIONS", "DELETE,GET,PATCH,PUT,POST;GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" })
	void writesEveryAllowInOneForm(String written, String expected) {
		assertThat(AllowedMethods.normalize(written)).isEqualTo(expected);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "GET,true", "OPTIONS,true", "TRACE,true", "PROPFIND,false", "FOO,false", "CONNECT,false",
			"get,false" })
	void knowsTheStandardMethods(String method, boolean standard) {
		assertThat(AllowedMethods.isStandard(method)).isEqualTo(standard);
	}

}
