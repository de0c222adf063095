package io.percolate.docker;

import java.util.List;

/**
 * One query run through HiveServer2: its rows, Hive's query id, and the HDFS bytes its MapReduce
 * jobs read (the sum of the "HDFS Read" figures Hive logs per stage).
 */
record HiveRun(List<String> rows, String queryId, long hdfsBytesRead, int jobs, double seconds) {
}
