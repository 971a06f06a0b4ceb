/**
 * For providers: the {@link org.jrdma.verbs.spi.Provider} service that jrdma-verbs finds with
 * {@link java.util.ServiceLoader}, the QP state machine every provider checks modify_qp against
 * ({@link org.jrdma.verbs.spi.QpTransitions}), and helpers for walking post lists
 * ({@link org.jrdma.verbs.spi.PostLists}). Applications do not need this package.
 */
package org.jrdma.verbs.spi;
