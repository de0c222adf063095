package io.percolate.docker;

import org.apache.hive.jdbc.HiveStatement;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs statements through HiveServer2's JDBC interface (hive-jdbc), as an operator's client would. */
final class HiveClient implements AutoCloseable {
    private static final Pattern QUERY_ID = Pattern.compile("Query ID = (\\S+)");
    private static final Pattern STAGE = Pattern.compile("Stage-Stage-\\d+: .*HDFS Read: (\\d+)");

    /**
     * Session settings of the test, not of the cluster: a fresh answer every time (no results
     * cache), a common join (three MapReduce jobs, whose map tasks read the tables), and splits of
     * at most 4 MiB so the larger table gets more than one map task.
     */
    private static final List<String> SESSION = List.of(
            "SET hive.query.results.cache.enabled=false",
            "SET hive.auto.convert.join=false",
            "SET mapreduce.input.fileinputformat.split.maxsize=4194304");

    private final Connection connection;

    HiveClient(String url) throws SQLException {
        this.connection = DriverManager.getConnection(url, "root", "");
        for (String set : SESSION) {
            execute(set);
        }
    }

    void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    HiveRun query(String sql) throws SQLException {
        long start = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery(sql)) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int c = 1; c <= columns; c++) {
                        row.append(c > 1 ? "|" : "").append(rs.getString(c));
                    }
                    rows.add(row.toString());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            String queryId = null;
            long hdfsRead = 0;
            int jobs = 0;
            for (String line : ((HiveStatement) statement).getQueryLog(false, Integer.MAX_VALUE)) {
                Matcher id = QUERY_ID.matcher(line);
                if (queryId == null && id.find()) {
                    queryId = id.group(1);
                }
                Matcher stage = STAGE.matcher(line);
                if (stage.find()) {
                    hdfsRead += Long.parseLong(stage.group(1));
                    jobs++;
                }
            }
            return new HiveRun(rows, queryId, hdfsRead, jobs, seconds);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
