package io.poolbudget.web;

import io.poolbudget.config.OperatorConfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * The read-only dashboard on the operator's HTTP port: the page and its assets under /dashboard/
 * (shipped in the jar, nothing from a CDN) and one JSON endpoint, /dashboard/api/policies. Only GET
 * and HEAD are answered; the page may load nothing but its own files.
 */
@ApplicationScoped
public class DashboardRoutes {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DashboardSource source;
    private final Duration window;

    DashboardRoutes(DashboardSource source, OperatorConfig config) {
        this.source = source;
        this.window = config.stabilizationWindow();
    }

    void routes(@Observes Router router) {
        if (!source.enabled()) {
            return;
        }
        router.route("/dashboard*").order(-100).handler(this::guard);
        router.getWithRegex("/dashboard").order(-90).handler(ctx -> ctx.redirect("/dashboard/")); // not "/dashboard/"
        router.get("/dashboard/api/policies").order(-90).handler(this::policies);
    }

    /** Security headers on everything under /dashboard; anything but a read is refused. */
    private void guard(RoutingContext ctx) {
        if (ctx.request().method() != HttpMethod.GET && ctx.request().method() != HttpMethod.HEAD) {
            ctx.response().setStatusCode(405).putHeader("Allow", "GET, HEAD").end("the dashboard is read-only\n");
            return;
        }
        ctx.response().putHeader("Content-Security-Policy", CSP)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "no-store");
        ctx.next();
    }

    private void policies(RoutingContext ctx) {
        if (!source.synced()) {
            ctx.response().setStatusCode(503).putHeader("Retry-After", "1")
                    .putHeader("Content-Type", "application/json")
                    .end("{\"loading\":true}");
            return;
        }
        var q = new DashboardView.Query(ctx.request().getParam("namespace"), ctx.request().getParam("q"),
                "true".equals(ctx.request().getParam("problems")), intParam(ctx, "page", 1), intParam(ctx, "size", 25));
        try {
            String body = JSON.writeValueAsString(
                    DashboardView.page(source.policies(), source.events(), source.budgets(), q, window));
            ctx.response().putHeader("Content-Type", "application/json").end(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("dashboard model could not be written as JSON", e);
        }
    }

    private static int intParam(RoutingContext ctx, String name, int fallback) {
        String v = ctx.request().getParam(name);
        try {
            return v == null ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
