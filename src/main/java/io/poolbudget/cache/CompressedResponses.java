package io.poolbudget.cache;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.JdkZlibDecoder;
import io.netty.handler.codec.compression.ZlibWrapper;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's Kubernetes client, as Quarkus builds it (its configuration, serialization and HTTP client), but
 * asking the API server for gzipped responses. The API server gzips a response over 128 KiB when asked: a page of
 * 250 Deployments is about 650 KB of JSON and 40 KB gzipped.
 * <p>
 * Why: a start-up lists every Deployment, StatefulSet and HPA of the watched namespaces, and every byte of it comes
 * through TLS. The image runs the JVM with C1 only (it needs less memory), and C1 has no intrinsics for AES-GCM: in
 * a profile of a restart at 50,000 Deployments (bench/operator-scale.sh) 40 % of the operator's CPU samples were
 * decrypting the lists. Gzipped, their 124 MiB of JSON cross TLS as 7 MiB, and the API server took no longer to send them.
 * <p>
 * fabric8's Vert.x client has no setting for it, so an {@link Interceptor} asks (on reads that are not watches: a
 * watch streams its events and the API server does not compress it) and inflates, with Netty's zlib decoder (the
 * JDK's native zlib). Whether a body is gzipped is told by its first byte, the first of the gzip magic number, which
 * no JSON document starts with: a response the API server did not compress (a small one) passes through untouched.
 */
@Singleton
public class CompressedResponses {
    @Produces
    @Singleton
    public KubernetesClient kubernetesClient(KubernetesSerialization serialization, Config config) {
        return new KubernetesClientBuilder().withKubernetesSerialization(serialization).withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gzip", new Gzip())).build();
    }

    public void close(@Disposes KubernetesClient client) {
        client.close();
    }

    public static final class Gzip implements Interceptor {
        @Override
        public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            String query = request.uri().getRawQuery();
            if ("GET".equals(request.method()) && (query == null || !query.contains("watch=true"))) {
                builder.setHeader("Accept-Encoding", "gzip");
            }
        }

        @Override
        public AsyncBody.Consumer<List<ByteBuffer>> consumer(AsyncBody.Consumer<List<ByteBuffer>> consumer,
                HttpRequest request) {
            return new Inflating(consumer);
        }
    }

    /** Passes a body on as it is, or inflated when it starts with the gzip magic number. */
    public static final class Inflating implements AsyncBody.Consumer<List<ByteBuffer>> {
        /** The gzip magic number's first byte: a control character, which neither JSON nor "k8s" starts with. */
        private static final int GZIP_FIRST_BYTE = 0x1f;
        private final AsyncBody.Consumer<List<ByteBuffer>> downstream;
        private Boolean gzipped;
        private EmbeddedChannel inflater;

        Inflating(AsyncBody.Consumer<List<ByteBuffer>> downstream) {
            this.downstream = downstream;
        }

        @Override
        public void consume(List<ByteBuffer> buffers, AsyncBody body) throws Exception {
            if (gzipped == null) {
                ByteBuffer first = buffers.stream().filter(ByteBuffer::hasRemaining).findFirst().orElse(null);
                if (first == null) {
                    downstream.consume(buffers, body);
                    return;
                }
                gzipped = (first.get(first.position()) & 0xff) == GZIP_FIRST_BYTE;
                if (gzipped) {
                    inflater = new EmbeddedChannel(new JdkZlibDecoder(ZlibWrapper.GZIP, 0));
                    body.done().whenComplete((v, t) -> inflater.finishAndReleaseAll());
                }
            }
            if (!gzipped) {
                downstream.consume(buffers, body);
                return;
            }
            for (ByteBuffer b : buffers) {
                // copied: the decoder may keep a partial block, and the HTTP client may reuse its buffer
                inflater.writeInbound(Unpooled.copiedBuffer(b));
            }
            List<ByteBuffer> out = new ArrayList<>();
            for (ByteBuf b = inflater.readInbound(); b != null; b = inflater.readInbound()) {
                out.add(ByteBuffer.wrap(ByteBufUtil.getBytes(b)));
                b.release();
            }
            if (out.isEmpty()) {
                body.consume(); // nothing to pass on yet: ask for more
            } else {
                downstream.consume(out, body);
            }
        }

        @Override
        public <U> U unwrap(Class<U> target) {
            return downstream.unwrap(target);
        }
    }
}
