/**
 * The HTTP edge: filters and Tomcat settings that apply the same rules to every route
 * before a controller runs (the request id, {@code Accept}, methods and {@code Allow},
 * the body's size, read deadline and strict UTF-8, the query string; docs/design.md
 * section 2, "The HTTP edge"). Each refusal is a problem from
 * {@link dev.payonce.web.Problems}. A named interface because controllers that read a
 * body honour its size limit
 * ({@link dev.payonce.web.edge.BodySizeFilter#MAX_BODY_BYTES}).
 */
@NullMarked
@NamedInterface("edge")
package dev.payonce.web.edge;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.NamedInterface;
