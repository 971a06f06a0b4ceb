/**
 * The etcd rendezvous store ({@code etcd://host:port}, {@code etcds://} for TLS), registered with
 * {@link java.util.ServiceLoader} as {@link org.jrdma.etcd.EtcdStoreProvider}, keeping the model of
 * {@link org.jrdma.bootstrap.rendezvous}: each rank's keys hang on its own lease, joins are
 * transactions that move the job to a new epoch when a slot is taken or the run sealed, and ranks
 * wait by watches from the revision of their initial read.
 *
 * <p>This jar and jetcd's run on the class path (target/store/*): jetcd's jars split packages, so
 * there is no module descriptor; the jar's Automatic-Module-Name is {@code org.jrdma.etcd}.
 */
package org.jrdma.etcd;
