package io.poolbudget.write;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A KubernetesClient that keeps the Events {@link PolicyEvents} creates through it, and does nothing else: every call
 * on the way ({@code v1().events().inNamespace(ns).resource(event).create()}) answers one of the kind it declares.
 */
final class RecordingClient {
    final List<Event> events = new CopyOnWriteArrayList<>();
    final KubernetesClient client = proxy(KubernetesClient.class);

    private <T> T proxy(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, (self, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> self == args[0];
                    case "hashCode" -> System.identityHashCode(self);
                    default -> "RecordingClient." + type.getSimpleName();
                };
            }
            if (args != null && args.length == 1 && args[0] instanceof Event e) {
                events.add(e);
            }
            // the two calls whose type is a type parameter: what they answer
            Class<?> returned = switch (method.getName()) {
                case "inNamespace" -> NonNamespaceOperation.class;
                case "resource" -> Resource.class;
                default -> method.getReturnType();
            };
            return returned == boolean.class ? false : returned.isInterface() ? proxy(returned) : null;
        }));
    }

    /** The Events sent so far, once {@code events}' sender has sent every one queued. */
    List<Event> sent(PolicyEvents sender) throws InterruptedException {
        for (int i = 0; i < 500 && sender.sender.getCompletedTaskCount() < sender.sender.getTaskCount(); i++) {
            Thread.sleep(10);
        }
        return List.copyOf(events);
    }
}
