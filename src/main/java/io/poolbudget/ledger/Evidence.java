package io.poolbudget.ledger;

import java.util.regex.Pattern;

/**
 * How the database tells one cluster's connections from the others', so that a cluster gone quiet is freed only once
 * none of its connections remain: by client address range, by a prefix of the application name its apps set, or by
 * the user they log in as. Written into the cluster's ledger row as {@code "<kind> <value>"}, so that every other
 * cluster's operator can look for it.
 */
public record Evidence(Kind kind, String value) {
    public enum Kind {
        /** client_addr within a CIDR range: the cluster's pod or node addresses as the database sees them */
        ClientCIDR,
        /** application_name starting with a prefix */
        ApplicationNamePrefix,
        /** the login user */
        User
    }

    private static final Pattern CIDR = Pattern.compile("[0-9a-fA-F:.]+/[0-9]{1,3}");

    public Evidence {
        if (kind == null || value == null || value.isBlank() || value.length() > 253 || value.contains(" ")) {
            throw new IllegalArgumentException("a ledger's evidence needs a kind and a value of 1 to 253 characters "
                    + "without spaces");
        }
        if (kind == Kind.ClientCIDR && !CIDR.matcher(value).matches()) {
            throw new IllegalArgumentException("ClientCIDR " + value + " is not an address range such as "
                    + "10.88.0.0/16");
        }
    }

    /** As the ledger row holds it. */
    public String describe() {
        return kind + " " + value;
    }

    /** A row's evidence; null where it is not one of ours (a tampered row): its connections then count as unknown. */
    public static Evidence parse(String text) {
        if (text == null) {
            return null;
        }
        int space = text.indexOf(' ');
        if (space < 0) {
            return null;
        }
        try {
            return new Evidence(Kind.valueOf(text.substring(0, space)), text.substring(space + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** PostgreSQL's condition on pg_stat_activity, with the value as its one parameter. */
    String condition() {
        return switch (kind) {
            case ClientCIDR -> "client_addr <<= ?::inet";
            case ApplicationNamePrefix -> "starts_with(application_name, ?)";
            case User -> "usename = ?";
        };
    }
}
