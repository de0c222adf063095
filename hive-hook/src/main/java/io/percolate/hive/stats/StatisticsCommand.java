package io.percolate.hive.stats;

import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code stats build <db.table> [options]}: runs the {@link StatisticsJob} on the cluster named
 * by the configuration on the class path (core-, yarn-, mapred- and hive-site.xml). Options:
 * {@code --partition NAME} (one partition, merged into the table's file), {@code --location DIR
 * --schema name:type,…} (skip the metastore), {@code --delimiter C}, {@code --null TEXT},
 * {@code --buckets N}, {@code --dir DIR} (the statistics directory; else
 * {@code percolate.statistics.dir}). Run as {@code hadoop jar <hook jar> io.percolate.hive.stats.StatisticsCommand build …}
 * or {@code ./percolate stats build …}.
 */
public final class StatisticsCommand {
    private StatisticsCommand() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !args[0].equals("build")) {
            System.err.println("usage: stats build <db.table> [--partition NAME] [--location DIR --schema name:type,...]"
                    + " [--delimiter C] [--null TEXT] [--buckets N] [--dir DIR]");
            System.exit(2);
        }
        String table = args[1];
        Map<String, String> options = options(args);
        HiveConf conf = new HiveConf();
        String partition = options.getOrDefault("partition", "");
        TableLayout layout;
        if (options.containsKey("location")) {
            if (!options.containsKey("schema")) {
                throw new IllegalArgumentException("--location needs --schema name:type,...");
            }
            String delimiter = options.getOrDefault("delimiter", String.valueOf(TableLayout.HIVE_DELIMITER));
            layout = new TableLayout(table.toLowerCase(java.util.Locale.ROOT), partition, options.get("location"),
                    TableLayout.parseSchema(options.get("schema")),
                    MetastoreLayouts.delimiter(Map.of("field.delim", delimiter)),
                    options.getOrDefault("null", TableLayout.HIVE_NULL));
        } else {
            layout = MetastoreLayouts.of(conf, table, partition);
        }
        String dir = options.getOrDefault("dir", conf.getTrimmed(StatisticsStore.DIR_KEY, StatisticsStore.DEFAULT_DIR));
        int buckets = Integer.parseInt(options.getOrDefault("buckets", String.valueOf(StatisticsSettings.DEFAULTS.buckets())));
        TableStatistics statistics = new StatisticsJob(conf, new StatisticsStore(conf, new Path(dir))).build(layout, buckets);
        System.out.println("statistics of " + statistics.table() + ": " + statistics.partitions().size()
                + " partition section(s), " + statistics.merged(StatisticsSettings.DEFAULTS).rowCount() + " rows, in "
                + new StatisticsStore(conf, new Path(dir)).pathOf(statistics.table()));
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        List<String> rest = new ArrayList<>(List.of(args).subList(2, args.length));
        for (int i = 0; i < rest.size(); i += 2) {
            String key = rest.get(i);
            if (!key.startsWith("--") || i + 1 >= rest.size()) {
                throw new IllegalArgumentException("expected --option value, got '" + key + "'");
            }
            options.put(key.substring(2), rest.get(i + 1));
        }
        return options;
    }
}
