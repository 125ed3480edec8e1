package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.AsyncBody;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class CompressedResponsesTest {
    /** What the HTTP client would hand on: the body in chunks, and how often more was asked for. */
    private static final class Body implements AsyncBody {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        int asked;

        @Override
        public void consume() {
            asked++;
        }

        @Override
        public CompletableFuture<Void> done() {
            return done;
        }

        @Override
        public void cancel() {}
    }

    private static final class Collecting implements AsyncBody.Consumer<List<ByteBuffer>> {
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        int calls;

        @Override
        public void consume(List<ByteBuffer> buffers, AsyncBody body) {
            calls++;
            for (ByteBuffer b : buffers) {
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                received.writeBytes(bytes);
            }
            body.consume();
        }
    }

    private static String list(int items) {
        StringBuilder json = new StringBuilder("{\"kind\":\"DeploymentList\",\"items\":[");
        for (int i = 0; i < items; i++) {
            json.append(i == 0 ? "" : ",").append("{\"metadata\":{\"name\":\"svc-").append(i)
                    .append("\",\"namespace\":\"shop\"},\"spec\":{\"replicas\":").append(i % 7).append("}}");
        }
        return json.append("]}").toString();
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** Feeds {@code bytes} in chunks of {@code chunk} bytes, reusing one buffer as an HTTP client may. */
    private static String feed(byte[] bytes, int chunk, Collecting downstream, Body body) throws Exception {
        var inflating = new CompressedResponses.Inflating(downstream);
        ByteBuffer reused = ByteBuffer.allocate(chunk);
        for (int at = 0; at < bytes.length; at += chunk) {
            reused.clear();
            reused.put(bytes, at, Math.min(chunk, bytes.length - at)).flip();
            inflating.consume(List.of(reused), body);
        }
        body.done.complete(null);
        return downstream.received.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aGzippedBodyArrivesInflatedWhateverItsChunks() throws Exception {
        String json = list(2000);
        byte[] zipped = gzip(json);
        assertThat(zipped.length).as("the test body compresses").isLessThan(json.length() / 5);
        for (int chunk : new int[]{1, 2, 3, 17, 1024, 8192, zipped.length}) {
            var body = new Body();
            var downstream = new Collecting();
            assertThat(feed(zipped, chunk, downstream, body)).as("chunks of %d bytes", chunk).isEqualTo(json);
            int chunks = (zipped.length + chunk - 1) / chunk;
            assertThat(body.asked).as("more is asked for after every chunk, passed on or not").isEqualTo(chunks);
        }
    }

    @Test
    void aBodyThatIsNotGzippedPassesThroughUntouched() throws Exception {
        String json = list(50);
        var body = new Body();
        var downstream = new Collecting();
        assertThat(feed(json.getBytes(StandardCharsets.UTF_8), 100, downstream, body)).isEqualTo(json);
        assertThat(downstream.calls).isEqualTo((json.length() + 99) / 100);
    }

    @Test
    void anEmptyFirstChunkDecidesNothing() throws Exception {
        String json = list(10);
        var body = new Body();
        var downstream = new Collecting();
        var inflating = new CompressedResponses.Inflating(downstream);
        inflating.consume(new ArrayList<>(List.of(ByteBuffer.allocate(0))), body);
        inflating.consume(List.of(ByteBuffer.wrap(gzip(json))), body);
        assertThat(downstream.received.toString(StandardCharsets.UTF_8)).isEqualTo(json);
    }
}
