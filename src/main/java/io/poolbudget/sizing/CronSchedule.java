package io.poolbudget.sizing;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A CronJob's schedule as the CronJob controller reads it (five fields, names of months and days, ranges, lists and
 * steps, {@code ?}, the {@code @hourly}-style macros and {@code @every}), and how many of its starts can fall within
 * one Job's run. Day of month and day of week combine as in cron: either matches when both are restricted, both
 * must when one is {@code *}. Starts are counted over two whole years (a leap day included) in UTC, so a window
 * spanning a time-zone change may be off by the hour the clock moves.
 */
public final class CronSchedule {
    private static final long YEARS_MINUTES = (365L + 366L) * 24 * 60;
    private static final Map<String, Long> OVERLAPS = new ConcurrentHashMap<>();
    private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT",
            "NOV", "DEC"};
    private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet days;
    private final BitSet months;
    private final BitSet weekdays;
    private final boolean anyDay;
    private final long everySeconds;

    private CronSchedule(BitSet minutes, BitSet hours, BitSet days, BitSet months, BitSet weekdays, boolean anyDay,
            long everySeconds) {
        this.minutes = minutes;
        this.hours = hours;
        this.days = days;
        this.months = months;
        this.weekdays = weekdays;
        this.anyDay = anyDay;
        this.everySeconds = everySeconds;
    }

    /** Parses a schedule; throws {@link IllegalArgumentException} saying what is wrong. */
    public static CronSchedule parse(String schedule) {
        String s = schedule == null ? "" : schedule.trim();
        if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
            int space = s.indexOf(' ');
            s = space < 0 ? "" : s.substring(space + 1).trim();
        }
        s = switch (s.toLowerCase(Locale.ROOT)) {
            case "@yearly", "@annually" -> "0 0 1 1 *";
            case "@monthly" -> "0 0 1 * *";
            case "@weekly" -> "0 0 * * 0";
            case "@daily", "@midnight" -> "0 0 * * *";
            case "@hourly" -> "0 * * * *";
            default -> s;
        };
        if (s.toLowerCase(Locale.ROOT).startsWith("@every ")) {
            long seconds = duration(s.substring(7).trim());
            return new CronSchedule(null, null, null, null, null, true, seconds);
        }
        String[] f = s.split("\\s+");
        if (f.length != 5) {
            throw new IllegalArgumentException("'" + schedule + "' is not a cron schedule of five fields (minute hour "
                    + "day-of-month month day-of-week) or a macro such as @hourly");
        }
        BitSet weekdays = field(f[4], 0, 7, DAYS);
        if (weekdays.get(7)) {
            weekdays.set(0); // 7 is Sunday too
        }
        return new CronSchedule(field(f[0], 0, 59, null), field(f[1], 0, 23, null), field(f[2], 1, 31, null),
                field(f[3], 1, 12, MONTHS), weekdays, star(f[2]) || star(f[4]), 0);
    }

    /**
     * The most starts within any {@code seconds} (a start at each end counted: a Job stopped at its deadline still
     * shuts down as the next starts), at least 1.
     */
    public static long mostStartsWithin(String schedule, long seconds) {
        if (OVERLAPS.size() > 1_000) {
            OVERLAPS.clear(); // schedules come from users: never an unbounded cache
        }
        return OVERLAPS.computeIfAbsent(schedule + "|" + seconds, k -> parse(schedule).mostWithin(seconds));
    }

    long mostWithin(long seconds) {
        if (everySeconds > 0) {
            return seconds / everySeconds + 1;
        }
        long span = seconds / 60;
        ArrayDeque<Long> window = new ArrayDeque<>();
        long most = 1;
        LocalDateTime start = LocalDateTime.of(2027, 1, 1, 0, 0);
        long base = start.toEpochSecond(ZoneOffset.UTC) / 60;
        for (long m = 0; m < YEARS_MINUTES; m += 60) {
            LocalDateTime t = LocalDateTime.ofEpochSecond((base + m) * 60, 0, ZoneOffset.UTC);
            if (!hours.get(t.getHour()) || !months.get(t.getMonthValue()) || !day(t)) {
                continue;
            }
            for (int minute = minutes.nextSetBit(0); minute >= 0; minute = minutes.nextSetBit(minute + 1)) {
                long at = m + minute;
                window.addLast(at);
                while (at - window.peekFirst() > span) {
                    window.removeFirst();
                }
                most = Math.max(most, window.size());
            }
        }
        return most;
    }

    /**
     * A day field that matches every day, as robfig/cron (the CronJob controller's parser) marks it: a part that is
     * {@code *} or {@code ?} without a step above 1. Then day of month and day of week must both match; else either.
     */
    private static boolean star(String field) {
        for (String part : field.split(",")) {
            int slash = part.indexOf('/');
            String range = slash < 0 ? part : part.substring(0, slash);
            boolean stepped = slash >= 0 && !part.substring(slash + 1).equals("1");
            if ((range.equals("*") || range.equals("?")) && !stepped) {
                return true;
            }
        }
        return false;
    }

    private boolean day(LocalDateTime t) {
        boolean dom = days.get(t.getDayOfMonth());
        boolean dow = weekdays.get(t.getDayOfWeek().getValue() % 7);
        return anyDay ? dom && dow : dom || dow;
    }

    private static BitSet field(String text, int min, int max, String[] names) {
        BitSet bits = new BitSet();
        int top = names == DAYS ? 7 : max;
        for (String part : text.split(",")) {
            String range = part;
            int step = 1;
            int slash = part.indexOf('/');
            if (slash >= 0) {
                range = part.substring(0, slash);
                step = number(part.substring(slash + 1), 1, Math.max(1, top), null, text);
            }
            int lo;
            int hi;
            if (range.equals("*") || range.equals("?")) {
                lo = min;
                hi = max;
            } else if (range.contains("-")) {
                lo = number(range.substring(0, range.indexOf('-')), min, top, names, text);
                hi = number(range.substring(range.indexOf('-') + 1), min, top, names, text);
            } else {
                lo = number(range, min, top, names, text);
                hi = slash >= 0 ? max : lo; // "a/n": from a to the end
            }
            if (lo > hi) {
                throw new IllegalArgumentException("'" + text + "': the range " + range + " runs backwards");
            }
            for (int v = lo; v <= hi; v += step) {
                bits.set(v);
            }
        }
        return bits;
    }

    private static int number(String text, int min, int max, String[] names, String field) {
        if (names != null) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equalsIgnoreCase(text)) {
                    return names == MONTHS ? i + 1 : i;
                }
            }
        }
        try {
            int v = Integer.parseInt(text);
            if (v < min || v > max) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + field + "': '" + text + "' is not a value from " + min + " to "
                    + max);
        }
    }

    /** A Go duration such as 90m or 1h30m, in seconds. */
    private static long duration(String text) {
        var m = java.util.regex.Pattern.compile("(\\d+)(h|m|s)").matcher(text);
        long seconds = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            seconds += switch (m.group(2)) {
                case "h" -> n * 3600;
                case "m" -> n * 60;
                default -> n;
            };
            end = m.end();
        }
        if (end != text.length() || seconds <= 0) {
            throw new IllegalArgumentException("'@every " + text + "': the interval is not a duration such as 1h30m");
        }
        return seconds;
    }
}
