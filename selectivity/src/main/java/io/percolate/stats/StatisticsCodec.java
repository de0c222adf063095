package io.percolate.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;

/**
 * A table's statistics file to and from JSON (format: {@code selectivity/STATISTICS.md}).
 * Readers ignore fields they do not know and refuse a format version newer than
 * {@link TableStatistics#FORMAT_VERSION}, as descriptors do.
 */
public final class StatisticsCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT)
            // missing parts (no histogram, no sketch) are left out rather than written as null
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private StatisticsCodec() {
    }

    public static byte[] toJson(TableStatistics statistics) {
        try {
            return MAPPER.writeValueAsBytes(statistics);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a statistics record failed to serialise", e);
        }
    }

    public static byte[] toJson(PastSelectivities past) {
        try {
            return MAPPER.writeValueAsBytes(past);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("past selectivities failed to serialise", e);
        }
    }

    /** One column's runs on their own: how the statistics job's maps hand them to its reducers. */
    public static byte[] toJson(RunLengths runs) {
        try {
            return MAPPER.writeValueAsBytes(runs);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("run lengths failed to serialise", e);
        }
    }

    public static RunLengths runLengthsFromJson(byte[] json, int offset, int length) throws MalformedStatisticsException {
        try {
            RunLengths runs = MAPPER.readValue(json, offset, length, RunLengths.class);
            if (runs == null) {
                throw new MalformedStatisticsException("not a JSON object");
            }
            return runs;
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new MalformedStatisticsException("invalid run lengths: " + e.getMessage(), e);
        }
    }

    public static PastSelectivities pastFromJson(byte[] json) throws MalformedStatisticsException {
        try {
            PastSelectivities past = MAPPER.readValue(json, PastSelectivities.class);
            if (past == null) {
                throw new MalformedStatisticsException("not a JSON object");
            }
            return past;
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            throw new MalformedStatisticsException("invalid past selectivities: " + e.getMessage(), e);
        }
    }

    public static TableStatistics fromJson(byte[] json) throws MalformedStatisticsException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new MalformedStatisticsException("not JSON: " + e.getMessage(), e);
        }
        if (tree == null || !tree.isObject()) {
            throw new MalformedStatisticsException("not a JSON object");
        }
        JsonNode version = tree.get("version");
        if (version == null || !version.canConvertToInt()) {
            throw new MalformedStatisticsException("no format version");
        }
        if (version.asInt() > TableStatistics.FORMAT_VERSION) {
            throw new MalformedStatisticsException("format version " + version.asInt()
                    + " is newer than this reader's " + TableStatistics.FORMAT_VERSION);
        }
        try {
            return MAPPER.treeToValue(tree, TableStatistics.class);
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new MalformedStatisticsException("invalid statistics: " + e.getMessage(), e);
        }
    }
}
