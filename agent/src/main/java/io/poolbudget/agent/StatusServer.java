package io.poolbudget.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * What the agent applied, for the operator to read: any request to the port gets the last {@link Resizer.Snapshot}
 * and the pod's {@link Demand} as JSON over HTTP/1.0. Read-only, a few hundred bytes: no HTTP server library (the
 * JDK's is not in every runtime image), and nothing the application could notice.
 * <p>
 * {@code GET /?over=N&waitMs=M} (a watch) answers when something the operator decides on changes rather than at once:
 * as soon as a demand sample is above N (the size the operator published to it: the pod starts to starve), the
 * published size or whether the pools are at it changes, or M ms have passed (at most {@link #MAX_WAIT_MS}). Anything
 * else in the request, or a value that is not a whole number, is ignored: the answer comes at once. At most
 * {@link #WATCHES} requests are served at once; one beyond them is answered at once, whatever it asked.
 */
final class StatusServer {
    static final long MAX_WAIT_MS = 10_000;
    static final int WATCHES = 4;
    private static final long STEP_MS = 100;
    private final java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(WATCHES);
    private static final java.util.regex.Pattern OVER = java.util.regex.Pattern
            .compile("[?&]over=(\\d{1,6})(?=[&\\s]|$)");
    private static final java.util.regex.Pattern WAIT = java.util.regex.Pattern
            .compile("[?&]waitMs=(\\d{1,6})(?=[&\\s]|$)");
    private final ServerSocket socket;
    private final Resizer resizer;
    private final Demand demand;
    private final long maxWaitMs;

    StatusServer(int port, Resizer resizer, Demand demand) throws IOException {
        this(port, resizer, demand, MAX_WAIT_MS);
    }

    /** {@code maxWaitMs}: the longest a watch waits (tests). */
    StatusServer(int port, Resizer resizer, Demand demand, long maxWaitMs) throws IOException {
        this.maxWaitMs = maxWaitMs;
        this.socket = new ServerSocket();
        this.socket.bind(new InetSocketAddress(port));
        this.resizer = resizer;
        this.demand = demand;
    }

    int port() {
        return socket.getLocalPort();
    }

    void start() {
        Thread t = new Thread(this::serve, "poolbudget-agent-status");
        t.setDaemon(true);
        t.start();
    }

    private void serve() {
        while (!socket.isClosed()) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                continue; // closed, or a client that went away
            }
            if (slots.tryAcquire()) {
                Thread t = new Thread(() -> {
                    try {
                        answer(s, true);
                    } finally {
                        slots.release();
                    }
                }, "poolbudget-agent-status-answer");
                t.setDaemon(true);
                t.start();
            } else {
                answer(s, false);
            }
        }
    }

    /** Reads the request, waits as it asks ({@code mayWait}), answers and closes. */
    private void answer(Socket s, boolean mayWait) {
        try (s) {
            s.setSoTimeout(2000);
            String line = readRequestLine(s.getInputStream());
            if (mayWait) {
                awaitChange(line);
            }
            byte[] body = resizer.last().json(demand.demand(), demand.recent()).getBytes(StandardCharsets.UTF_8);
            OutputStream out = s.getOutputStream();
            out.write(("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // a client that went away; the next one is served
        }
    }

    /** Waits as a watch asks ({@code line}: the request line), or not at all. */
    private void awaitChange(String line) {
        var over = OVER.matcher(line);
        var wait = WAIT.matcher(line);
        if (!line.startsWith("GET ") || !over.find() || !wait.find()) {
            return;
        }
        int size = Integer.parseInt(over.group(1));
        long deadline = System.nanoTime() + Math.min(maxWaitMs, Long.parseLong(wait.group(1))) * 1_000_000;
        String applied = applied(resizer.last());
        try {
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                if (demand.awaitAbove(size, Math.min(STEP_MS, Math.max(1, left / 1_000_000)))
                        || !applied.equals(applied(resizer.last()))) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a watch answers on when it changes: the published size and whether every pool is at it. */
    private static String applied(Resizer.Snapshot snapshot) {
        return snapshot.published + "/" + snapshot.confirmed();
    }

    /**
     * Reads the request's headers (up to 8 KiB, until the blank line) and returns its first line (up to 512
     * characters); the headers do not matter.
     */
    static String readRequestLine(InputStream in) throws IOException {
        StringBuilder first = new StringBuilder();
        int newlines = 0;
        boolean firstDone = false;
        long deadline = System.nanoTime() + 2_000_000_000L; // a slow client gets 2 s in all, not 2 s per byte
        for (int i = 0; i < 8192 && newlines < 2 && System.nanoTime() < deadline; i++) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            firstDone |= b == '\n';
            if (!firstDone && b != '\r' && first.length() < 512) {
                first.append((char) b);
            }
            newlines = b == '\n' ? newlines + 1 : b == '\r' ? newlines : 0;
        }
        return first.toString();
    }
}
