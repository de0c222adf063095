package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A descriptor source answering from memory: a query without an answer has no descriptor
 * (FileNotFoundException). Counts the reads of each query and can hold every read until
 * {@link #open()}.
 */
final class FakeSource implements DescriptorSource {

    /** What the n-th read (1-based) of one query returns or throws. */
    @FunctionalInterface
    interface Answer {
        DescriptorStore.Stored answer(int call) throws IOException, MalformedDescriptorException;
    }

    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final java.util.Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final CountDownLatch gate;

    /** A source that answers at once. */
    FakeSource() {
        this(false);
    }

    /** @param held whether reads wait for {@link #open()} */
    FakeSource(boolean held) {
        this.gate = new CountDownLatch(held ? 1 : 0);
    }

    FakeSource serve(DescriptorStore.Stored stored) {
        return answer(stored.descriptor().queryId(), call -> stored);
    }

    FakeSource answer(String queryId, Answer answer) {
        answers.put(queryId, answer);
        return this;
    }

    void open() {
        gate.countDown();
    }

    @Override
    public void delete(String queryId) {
        deleted.add(queryId);
    }

    /** Queries whose descriptor the loader was asked to delete. */
    java.util.Set<String> deleted() {
        return java.util.Set.copyOf(deleted);
    }

    int calls(String queryId) {
        AtomicInteger n = calls.get(queryId);
        return n == null ? 0 : n.get();
    }

    int totalCalls() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public DescriptorStore.Stored read(String queryId) throws IOException, MalformedDescriptorException {
        int call = calls.computeIfAbsent(queryId, k -> new AtomicInteger()).incrementAndGet();
        try {
            if (!gate.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the source");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
        Answer answer = answers.get(queryId);
        if (answer == null) {
            throw new FileNotFoundException(queryId + ".json");
        }
        return answer.answer(call);
    }
}
