package dev.payonce.web;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.stereotype.Component;

/**
 * Makes the application's {@link JsonMapper} read request bodies as strictly as the
 * payments reader (docs/design.md section 2), so that the admin API and every other
 * {@code @RequestBody} follow one rule: a duplicate member, trailing content after the
 * value, a number or boolean where a string is expected, and a JSON {@code null} for a
 * string member (omit it instead) are all refused, answered {@code 400 invalid-request}
 * by {@link ProblemDetailsAdvice}. Unknown members are refused by
 * {@code spring.jackson.deserialization.fail-on-unknown-properties}. An omitted member
 * stays {@code null} in the Java value, so optional members keep working.
 */
@Component
class StrictJsonReading implements JsonMapperBuilderCustomizer {

	@Override
	public void customize(JsonMapper.Builder builder) {
		builder.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.withCoercionConfig(LogicalType.Textual,
					(config) -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
						.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
						.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
			.addModule(new SimpleModule("payonce-strict-json").addDeserializer(String.class,
					new NonNullStringDeserializer()));
	}

	/**
	 * Reads strings as Jackson does, but refuses an explicit JSON {@code null}; an absent
	 * member is still {@code null}. (Jackson's {@code Nulls.FAIL} would refuse an absent
	 * record component too.)
	 */
	static final class NonNullStringDeserializer extends StringDeserializer {

		@Override
		public String getNullValue(DeserializationContext context) {
			throw InvalidNullException.from(context, null, context.getContextualType());
		}

		@Override
		public @Nullable Object getAbsentValue(DeserializationContext context) {
			return null;
		}

	}

}
