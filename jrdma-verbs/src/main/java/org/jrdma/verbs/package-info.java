/**
 * The verbs API, modelled on libibverbs: {@link org.jrdma.verbs.Verbs} lists the devices
 * ({@code ibv_get_device_list}); a {@link org.jrdma.verbs.Device} opens a
 * {@link org.jrdma.verbs.Context} ({@code ibv_open_device}), from which come protection domains,
 * memory regions and windows, completion queues and channels, queue pairs, SRQs and address
 * handles. Structs are records or mutable classes named after them ({@code ibv_send_wr} is
 * {@link org.jrdma.verbs.SendWorkRequest}), enums keep the {@code IBV_*} names without the
 * prefix, and a failed verb throws {@link org.jrdma.verbs.VerbsException} with the errno
 * libibverbs would return.
 */
package org.jrdma.verbs;
