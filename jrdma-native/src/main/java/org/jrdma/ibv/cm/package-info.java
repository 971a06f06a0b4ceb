/**
 * jrdma-cm's API on rdma_cm: a {@link org.jrdma.cm.spi.CmBackend} that runs event channels and
 * ids through rdma-core's {@code librdmacm.so.1} (looked up by name at first use), so that on a
 * native device the kernel's rdma_cm sets connections up and jrdma-cm's programs run unchanged.
 * Raw memory stays in {@code org.jrdma.ibv.ffi} ({@code CmCalls}, {@code RdmaCmLayouts}).
 */
package org.jrdma.ibv.cm;
