package io.percolate.descriptor;

import io.percolate.model.Dags;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The scheduler reads descriptors any user can write, so the parser must answer every input
 * with a descriptor or a {@link MalformedDescriptorException}: never another exception, never
 * a hang or a stack overflow. Mutations of a valid descriptor (byte flips, cuts, splices,
 * swapped values) and hand-made hostile documents, from a fixed seed.
 */
final class TestDescriptorCodecFuzz {
    private static final String VALID = DescriptorCodec.toJsonString(TestDescriptorCodec.DESCRIPTOR);
    private static final String[] HOSTILE_VALUES = {
            "null", "-1", "1e309", "-1e309", "NaN", "\"\"", "[]", "{}", "true", "9223372036854775808",
            "\"Stage-1\"", "[null]", "{\"kind\":\"unknown\"}", "0.5", "\"\\u0000\""};

    @Test
    void mutatedDescriptors_parseOrFailCleanly() {
        Random random = new Random(20261122L);
        int parsed = 0;
        for (int i = 0; i < 5_000; i++) {
            if (parse(mutate(VALID, random))) {
                parsed++;
            }
        }
        // most mutations break the document, some keep it valid: both paths were exercised
        assertTrue(parsed > 0 && parsed < 5_000, "parsed " + parsed + " of 5000");
    }

    @Test
    void hostileDocuments_failCleanly() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        String deepPredicate = "{\"kind\":\"not\",\"term\":".repeat(50_000) + "{\"kind\":\"opaque\",\"text\":\"x\"}"
                + "}".repeat(50_000);
        String[] documents = {"", " ", "null", "[]", "{}", "\"text\"", "{\"version\":1}", deep,
                VALID.replace("\"jobs\" : [", "\"jobs\" : " + deep + ", \"x\" : ["),
                VALID.replaceFirst("\"predicates\" : \\[", "\"predicates\" : [" + deepPredicate + ","),
                VALID.substring(0, VALID.length() / 2), VALID + VALID, "\uFEFF" + VALID};
        for (String document : documents) {
            parse(document);
        }
    }

    @Test
    void predicatesAsDeepAsTheHookWrites_roundTrip() throws MalformedDescriptorException {
        // the hook keeps 64 levels of AND/OR/NOT; AND and OR cost two JSON levels each
        Predicate p = new Predicate.Opaque("x");
        for (int i = 0; i < 64; i++) {
            p = new Predicate.And(List.of(p, new Predicate.Opaque("y" + i)));
        }
        JobNode scan = Dags.job("Stage-1", OperatorKind.EXTRACT);
        JobNode deep = new JobNode(scan.stageId(), scan.alternatives(), scan.parents(), scan.operator(),
                scan.operators(), scan.inputTables(), List.of(p), scan.projections(), scan.keys(), scan.estimate());
        QueryDescriptor d = QueryDescriptor.of("q", "alice", "select 1", 0, new QueryDag(List.of(deep)));
        assertEquals(d, DescriptorCodec.fromJson(DescriptorCodec.toJson(d)));
    }

    /** True if the input parsed; fails the test on anything but a clean rejection. */
    private static boolean parse(String json) {
        try {
            QueryDescriptor d = DescriptorCodec.fromJson(json.getBytes(StandardCharsets.UTF_8));
            return d != null;
        } catch (MalformedDescriptorException e) {
            return false;
        } catch (RuntimeException | StackOverflowError e) {
            fail("parser threw " + e + " on: " + abbreviate(json), e);
            return false;
        }
    }

    private static String mutate(String json, Random random) {
        StringBuilder s = new StringBuilder(json);
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(s.length());
            switch (random.nextInt(4)) {
                case 0 -> s.setCharAt(at, (char) (32 + random.nextInt(95)));          // flip a character
                case 1 -> s.delete(at, Math.min(s.length(), at + 1 + random.nextInt(40))); // cut
                case 2 -> s.insert(at, json, random.nextInt(json.length() / 2),
                        json.length() / 2 + random.nextInt(json.length() / 2));      // splice
                default -> {                                                           // swap a value
                    int colon = s.indexOf(":", at);
                    if (colon >= 0) {
                        int end = colon + 1;
                        while (end < s.length() && ",}]".indexOf(s.charAt(end)) < 0) {
                            end++;
                        }
                        s.replace(colon + 1, end, HOSTILE_VALUES[random.nextInt(HOSTILE_VALUES.length)]);
                    }
                }
            }
            if (s.length() == 0) {
                s.append('{');
            }
        }
        return s.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "... (" + s.length() + " chars)";
    }
}
