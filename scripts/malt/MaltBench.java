/*
 * MaltBench -- throughput of a trained MaltParser model, parsed in-process
 * through MaltParser's concurrent API, the peer that scripts/bench.sh and
 * scripts/bench_peer.sh measure transparse against.
 *
 *   usage: java -cp MALTPARSER_CLASSPATH:. MaltBench -m MODEL.mco
 *              [-p PASSES] [-w WARMUP] [-o OUT.conllu] CONLLU
 *
 * Reads the sentences of CONLLU and turns each into the token lines
 * MaltParser's CoNLL-U data format reads (ID, FORM, LEMMA, UPOS, XPOS, FEATS:
 * the gold columns, as transparse's gold-tag figures get them), before any
 * timing. Loads MODEL (ConcurrentMaltParserService.initializeParserModel),
 * then parses every sentence with ConcurrentMaltParserModel.parseTokens on
 * this one thread: at least WARMUP untimed passes (default 5), and more while
 * the JIT still compiles during a pass (its compilation time is 1 % of the
 * pass or more; at most MAX_WARMUP passes in all), then PASSES timed passes
 * (default 3), reporting the best in words per second. Multiword-token and
 * empty-node lines are not words and are not given to the parser.
 *
 * With -o, writes the parse of the last pass as CONLLU with HEAD and DEPREL
 * replaced (DEPS blanked; every other line as read), for scoring with
 * `transparse eval CONLLU OUT.conllu`. The stack-lazy system may leave
 * several words on the root, which the CoNLL 2018 scorer (and transparse
 * eval) refuse; the writer keeps the first of them as the root and attaches
 * the others, their DEPREL unchanged, to it, and reports how many it moved
 * (extra_roots).
 *
 * Prints "key value" lines: sentences, words, load_ms, words_per_s,
 * extra_roots (with -o); and the
 * speed and JIT compilation time of every pass, warm-up ones included, on
 * standard error.
 */
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.maltparser.concurrent.ConcurrentMaltParserModel;
import org.maltparser.concurrent.ConcurrentMaltParserService;

public final class MaltBench {
    /** One sentence: every line as read, and which of them are words. */
    private static final class Sentence {
        final List<String> lines = new ArrayList<>();
        final List<Integer> wordLines = new ArrayList<>();
        String[] tokens;
        String[] parsed;
    }

    /** The most warm-up passes, however fast the passes still get. */
    private static final int MAX_WARMUP = 20;
    /** JIT compilation time, as a share of a pass, below which the JIT is done. */
    private static final double JIT_SETTLED = 0.01;

    private static void usage() {
        System.err.println("usage: MaltBench -m MODEL.mco [-p PASSES] [-w WARMUP] [-o OUT.conllu] CONLLU");
        System.exit(2);
    }

    private static boolean isWord(String id) {
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return !id.isEmpty();
    }

    private static List<Sentence> read(String path) throws IOException {
        List<Sentence> out = new ArrayList<>();
        Sentence cur = new Sentence();
        int lineNo = 0;
        try (BufferedReader r = Files.newBufferedReader(Paths.get(path), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isEmpty()) {
                    if (!cur.lines.isEmpty()) {
                        out.add(cur);
                        cur = new Sentence();
                    }
                    continue;
                }
                cur.lines.add(line);
                if (line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 10) {
                    throw new IOException(path + ":" + lineNo + ": " + f.length + " columns, want 10");
                }
                if (isWord(f[0])) {
                    cur.wordLines.add(cur.lines.size() - 1);
                }
            }
        }
        if (!cur.lines.isEmpty()) {
            out.add(cur);
        }
        for (Sentence s : out) {
            s.tokens = new String[s.wordLines.size()];
            for (int i = 0; i < s.tokens.length; i++) {
                String[] f = s.lines.get(s.wordLines.get(i)).split("\t", -1);
                s.tokens[i] = String.join("\t", f[0], f[1], f[2], f[3], f[4], f[5]);
            }
        }
        return out;
    }

    private static void parseAll(ConcurrentMaltParserModel model, List<Sentence> sents) throws Exception {
        for (Sentence s : sents) {
            s.parsed = model.parseTokens(s.tokens);
        }
    }

    /**
     * write writes the parse; returns how many words it moved from the root
     * to the sentence's first root word (see the class comment).
     */
    private static int write(String path, List<Sentence> sents) throws IOException {
        int moved = 0;
        try (BufferedWriter w = Files.newBufferedWriter(Paths.get(path), StandardCharsets.UTF_8)) {
            for (Sentence s : sents) {
                int k = 0;
                String root = null;
                for (int i = 0; i < s.lines.size(); i++) {
                    String line = s.lines.get(i);
                    if (k < s.wordLines.size() && s.wordLines.get(k) == i) {
                        String[] f = line.split("\t", -1);
                        String[] p = s.parsed[k].split("\t", -1);
                        if (p.length < 8) {
                            throw new IOException("MaltParser returned \"" + s.parsed[k] + "\": no HEAD and DEPREL");
                        }
                        f[6] = p[6];
                        f[7] = p[7];
                        f[8] = "_";
                        if (f[6].equals("0")) {
                            if (root == null) {
                                root = f[0];
                            } else {
                                f[6] = root;
                                moved++;
                            }
                        }
                        line = String.join("\t", f);
                        k++;
                    }
                    w.write(line);
                    w.newLine();
                }
                w.newLine();
            }
        }
        return moved;
    }

    public static void main(String[] args) throws Exception {
        String model = null;
        String outPath = null;
        String data = null;
        int passes = 3;
        int warmup = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m":
                    if (++i >= args.length) usage();
                    model = args[i];
                    break;
                case "-p":
                    if (++i >= args.length) usage();
                    passes = Integer.parseInt(args[i]);
                    break;
                case "-w":
                    if (++i >= args.length) usage();
                    warmup = Integer.parseInt(args[i]);
                    break;
                case "-o":
                    if (++i >= args.length) usage();
                    outPath = args[i];
                    break;
                default:
                    if (args[i].startsWith("-") || data != null) usage();
                    data = args[i];
            }
        }
        if (model == null || data == null || passes < 1 || warmup < 0) {
            usage();
        }
        List<Sentence> sents = read(data);
        long words = 0;
        for (Sentence s : sents) {
            words += s.tokens.length;
        }

        // MaltParser prints its banner and progress to standard output; keep
        // ours to the key-value lines.
        PrintStream stdout = System.out;
        System.setOut(System.err);
        long t0 = System.nanoTime();
        ConcurrentMaltParserModel m = ConcurrentMaltParserService.initializeParserModel(new File(model));
        double loadMs = (System.nanoTime() - t0) / 1e6;

        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean stillWarming = false;
        for (int i = 0; i < MAX_WARMUP && (i < warmup || stillWarming); i++) {
            long jit0 = jit.getTotalCompilationTime();
            long t = System.nanoTime();
            parseAll(m, sents);
            double ms = (System.nanoTime() - t) / 1e6;
            long jitMs = jit.getTotalCompilationTime() - jit0;
            System.err.printf("warm-up pass %d: %.0f words/s, JIT %d ms%n", i + 1, words / ms * 1e3, jitMs);
            stillWarming = jitMs > ms * JIT_SETTLED;
        }
        double best = Double.MAX_VALUE;
        for (int i = 0; i < passes; i++) {
            long jit0 = jit.getTotalCompilationTime();
            long t = System.nanoTime();
            parseAll(m, sents);
            double s = (System.nanoTime() - t) / 1e9;
            System.err.printf("timed pass %d: %.0f words/s, JIT %d ms%n", i + 1, words / s,
                    jit.getTotalCompilationTime() - jit0);
            best = Math.min(best, s);
        }
        System.setOut(stdout);
        int moved = outPath != null ? write(outPath, sents) : 0;
        System.out.printf("sentences %d%n", sents.size());
        System.out.printf("words %d%n", words);
        System.out.printf("load_ms %.0f%n", loadMs);
        System.out.printf("words_per_s %.0f%n", words / best);
        if (outPath != null) {
            System.out.printf("extra_roots %d%n", moved);
        }
    }
}
