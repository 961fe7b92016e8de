/**
 * System tests, tagged {@code system} and run by a Failsafe execution of their own after
 * the other integration tests ({@code ./mvnw verify -Pfast} leaves them out): the crash,
 * shutdown and soak tests, the tests that start the packaged jar or a second instance of
 * the application, and the one that owns a PostgreSQL server. They prove the promise
 * across processes, restarts and faults rather than one rule, so they take minutes.
 */
package dev.payonce.system;
