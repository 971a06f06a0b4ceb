package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The records' value semantics: arrays compared by content, copied in and out, shown in hex. */
class MessageRecordsTest {
    @Test
    void equalContentIsEqual() throws CmFormatException {
        Req a = (Req) CmCodec.decode(RpingMads.frame(1), 0, Mad.SIZE).message();
        Req b = (Req) CmCodec.decode(RpingMads.frame(1), 0, Mad.SIZE).message();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotSameAs(b);
        assertThat(a.primaryPath()).isEqualTo(b.primaryPath()).hasSameHashCodeAs(b.primaryPath());
        assertThat(new Drep(1, 2, null)).isEqualTo(new Drep(1, 2, new byte[0])).isNotEqualTo(new Drep(1, 2, new byte[] {1}))
                .isNotEqualTo(new Rtu(1, 2, null));
    }

    @Test
    void arraysAreCopiedInAndOut() {
        byte[] data = {1, 2, 3};
        Rtu rtu = new Rtu(1, 2, data);
        data[0] = 9;
        rtu.privateData()[1] = 9;
        assertThat(rtu.privateData()).startsWith(1, 2, 3).hasSize(Rtu.PRIVATE_DATA_SIZE);
        byte[] gid = new byte[16];
        PathInfo p = new PathInfo(0, 0, gid, gid, 0, 0, 0, 0, 0, false, 0);
        gid[0] = 1;
        p.localGid()[0] = 1;
        assertThat(p).isEqualTo(PathInfo.NONE);
    }

    @Test
    void toStringShowsFieldsInHexAndTrimsTrailingZeros() throws CmFormatException {
        String s = CmCodec.decode(RpingMads.frame(40), 0, Mad.SIZE).message().toString();
        assertThat(s).isEqualTo("Dreq[localCommId=0x82e96b55, remoteCommId=0xa464e488, remoteQpnEecn=0x21, privateData=zeros(220)]");
        assertThat(new Rtu(1, 2, new byte[] {0x40, 0, 7}).toString()).endsWith("privateData=400007+zeros(221)]");
    }

    @Test
    void aRejKnowsItsReason() {
        assertThat(new Rej(0, 2, Rej.REJECTED_REQ, 0, 8, null, null).rejectReason()).isEqualTo(RejectReason.INVALID_SERVICE_ID);
        assertThat(new Rej(0, 2, Rej.REJECTED_REQ, 0, 34, null, null).rejectReason()).isNull();
    }
}
