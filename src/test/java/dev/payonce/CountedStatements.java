package dev.payonce;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Counts the statements the application sends to PostgreSQL, as PostgreSQL's statement
 * log would show them: every execution of a statement, and every {@code COMMIT} or
 * {@code ROLLBACK} of a transaction (a {@code BEGIN} travels with the first statement of
 * its transaction, in the same round trip). The application's {@link DataSource} is
 * wrapped at start-up; {@code unwrap} and {@code isWrapperFor} reach the pool behind it.
 * Each statement is recorded with its text, so a test can tell the request's statements
 * from a background job's.
 */
@TestConfiguration(proxyBeanMethods = false)
public class CountedStatements {

	private final List<String> executed = new CopyOnWriteArrayList<>();

	@Bean
	static BeanPostProcessor countingDataSource(CountedStatements counted) {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return (bean instanceof DataSource dataSource) ? counted.wrap(dataSource) : bean;
			}
		};
	}

	/** Forgets what was counted so far. */
	public void clear() {
		this.executed.clear();
	}

	/**
	 * The statements sent since {@link #clear()} that touch one of the tables or
	 * functions named.
	 * @param names table or function names, for example {@code idempotency_records}
	 * @return their texts, in order ({@code COMMIT} and {@code ROLLBACK} included)
	 */
	public List<String> touching(String... names) {
		List<String> matching = new ArrayList<>();
		for (String sql : this.executed) {
			for (String name : names) {
				if (sql.equals("COMMIT") || sql.equals("ROLLBACK") || sql.contains(name)) {
					matching.add(sql);
					break;
				}
			}
		}
		return matching;
	}

	DataSource wrap(DataSource dataSource) {
		return proxy(DataSource.class, dataSource, (target, method, args) -> {
			Object result = invoke(target, method, args);
			return (result instanceof Connection connection) ? connection(connection) : result;
		});
	}

	private Connection connection(Connection connection) {
		return proxy(Connection.class, connection, (target, method, args) -> {
			switch (method.getName()) {
				case "commit" -> this.executed.add("COMMIT");
				case "rollback" -> {
					if (args == null) {
						this.executed.add("ROLLBACK");
					}
				}
				default -> {
				}
			}
			Object result = invoke(target, method, args);
			if (result instanceof CallableStatement || result instanceof PreparedStatement) {
				String sql = (args != null && args.length > 0 && args[0] instanceof String text) ? text : "?";
				Class<? extends Statement> type = (result instanceof CallableStatement) ? CallableStatement.class
						: PreparedStatement.class;
				return statement(type, (Statement) result, sql);
			}
			if (result instanceof Statement statement) {
				return statement(Statement.class, statement, null);
			}
			return result;
		});
	}

	private <S extends Statement> S statement(Class<S> type, Statement statement, String prepared) {
		return proxy(type, type.cast(statement), (target, method, args) -> {
			if (method.getName().startsWith("execute")) {
				this.executed.add((prepared != null) ? prepared
						: (args != null && args.length > 0) ? String.valueOf(args[0]) : "?");
			}
			return invoke(target, method, args);
		});
	}

	@FunctionalInterface
	private interface Handler<T> {

		Object handle(T target, Method method, Object[] args) throws Throwable;

	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, Handler<T> handler) {
		InvocationHandler invocation = (proxy, method, args) -> {
			if (method.getName().equals("unwrap") || method.getName().equals("isWrapperFor")) {
				return invoke(target, method, args);
			}
			return handler.handle(target, method, args);
		};
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, invocation);
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
