package io.percolate.hive.stats;

import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Partition;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.thrift.TException;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a table's (or partition's) layout from the Hive metastore named by a {@link HiveConf}
 * ({@code hive-site.xml}: a remote metastore's URIs, or an embedded one's database). Only
 * delimited text tables are read by the job; other storage formats are refused with their name.
 */
public final class MetastoreLayouts {
    private static final String TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat";

    private MetastoreLayouts() {
    }

    /**
     * The layout of {@code db.table}, or of one of its partitions when {@code partition} is not
     * empty ({@code ds=2024-01-01}, as Hive names partitions).
     */
    public static TableLayout of(HiveConf conf, String table, String partition) throws IOException {
        String[] name = table.toLowerCase(Locale.ROOT).split("\\.", 2);
        if (name.length != 2) {
            throw new IllegalArgumentException("not a db.table name: '" + table + "'");
        }
        IMetaStoreClient client;
        try {
            client = new HiveMetaStoreClient(conf);
        } catch (TException e) {
            throw new IOException("cannot reach the metastore: " + e.getMessage(), e);
        }
        try {
            Table t = client.getTable(name[0], name[1]);
            StorageDescriptor sd = t.getSd();
            if (!partition.isEmpty()) {
                Partition p = client.getPartition(name[0], name[1], partition);
                sd = p.getSd();
            }
            if (!TEXT_INPUT.equals(sd.getInputFormat())) {
                throw new IOException(table + " is stored with " + sd.getInputFormat()
                        + "; the statistics job reads delimited text tables only");
            }
            List<TableLayout.Column> columns = t.getSd().getCols().stream()
                    .map((FieldSchema f) -> TableLayout.Column.ofHive(f.getName(), f.getType()))
                    .toList();
            Map<String, String> serde = sd.getSerdeInfo() == null ? Map.of() : sd.getSerdeInfo().getParameters();
            return new TableLayout(name[0] + "." + name[1], partition, sd.getLocation(), columns,
                    delimiter(serde), serde.getOrDefault("serialization.null.format", TableLayout.HIVE_NULL));
        } catch (TException e) {
            throw new IOException("metastore has no " + table + (partition.isEmpty() ? "" : " partition " + partition)
                    + ": " + e.getMessage(), e);
        } finally {
            client.close();
        }
    }

    /**
     * LazySimpleSerDe's field delimiter: {@code field.delim}, else {@code serialization.format};
     * as Hive reads it, text that is a number is the character's code ({@code "1"} = {@code \u0001}).
     */
    static char delimiter(Map<String, String> serde) {
        String d = serde.getOrDefault("field.delim", serde.get("serialization.format"));
        if (d == null || d.isEmpty()) {
            return TableLayout.HIVE_DELIMITER;
        }
        if (d.length() <= 3 && d.chars().allMatch(Character::isDigit)) {
            return (char) Integer.parseInt(d);
        }
        return d.charAt(0);
    }
}
