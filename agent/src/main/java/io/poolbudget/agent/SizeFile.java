package io.poolbudget.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The published size: one whole number from 1 to 1,000,000 in a file; anything else is no size. */
final class SizeFile {
    static final int MAX = 1_000_000;

    private SizeFile() {}

    static Integer read(Path file) {
        try {
            String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
            if (!text.matches("[1-9][0-9]{0,6}")) {
                return null;
            }
            int n = Integer.parseInt(text);
            return n <= MAX ? n : null;
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
