package io.percolate.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A benchmark's command line: {@code --name value} pairs and bare {@code --flag}s, each checked
 * against the options the benchmark knows, read with defaults. Every mistake — an unknown option,
 * a missing value, a value that is not a number — is an {@link IllegalArgumentException} naming
 * the option and the usage, which {@link BenchCommand} prints.
 */
public final class BenchOptions {
    private final Map<String, String> values;
    private final Set<String> flags;
    private final String usage;

    private BenchOptions(Map<String, String> values, Set<String> flags, String usage) {
        this.values = values;
        this.flags = flags;
        this.usage = usage;
    }

    /**
     * @param valued    options that take a value, without the leading {@code --}
     * @param bareFlags options that take none
     * @param usage     the options as the benchmark's help shows them
     */
    public static BenchOptions parse(List<String> args, Set<String> valued, Set<String> bareFlags, String usage) {
        Map<String, String> values = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String name = arg.startsWith("--") ? arg.substring(2) : null;
            if (name != null && bareFlags.contains(name)) {
                flags.add(name);
            } else if (name != null && valued.contains(name)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("missing value for " + arg + "; options: " + usage);
                }
                values.put(name, args.get(++i));
            } else {
                throw new IllegalArgumentException("unknown option " + arg + "; options: " + usage);
            }
        }
        return new BenchOptions(values, flags, usage);
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }

    public String text(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    public double number(String name, double otherwise) {
        return optionalNumber(name).orElse(otherwise);
    }

    public Optional<Double> optionalNumber(String name) {
        return Optional.ofNullable(values.get(name)).map(v -> parsed(name, v, Double::parseDouble));
    }

    public int integer(String name, int otherwise) {
        return values.containsKey(name) ? parsed(name, values.get(name), Integer::parseInt) : otherwise;
    }

    public long longInteger(String name, long otherwise) {
        return values.containsKey(name) ? parsed(name, values.get(name), Long::parseLong) : otherwise;
    }

    public Path path(String name, Path otherwise) {
        return values.containsKey(name) ? Path.of(values.get(name)) : otherwise;
    }

    /** A comma-separated list, each item trimmed. */
    public List<String> list(String name, List<String> otherwise) {
        return values.containsKey(name)
                ? Arrays.stream(values.get(name).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList()
                : otherwise;
    }

    public List<Double> numbers(String name, List<Double> otherwise) {
        return values.containsKey(name)
                ? list(name, List.of()).stream().map(v -> parsed(name, v, Double::parseDouble)).toList()
                : otherwise;
    }

    /** TPC-H query ids, {@code 1,3,11m} meaning 01, 03 and 11m. */
    public List<String> queries(String name, List<String> otherwise) {
        return list(name, otherwise).stream().map(q -> q.length() == 1 ? "0" + q : q).toList();
    }

    private <T> T parsed(String name, String value, Function<String, T> parser) {
        try {
            return parser.apply(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " needs a number, got '" + value + "'; options: " + usage);
        }
    }
}
