//! Compiles forbidden words into a machine over the moves' symbols (Aho & Corasick): a state is
//! the longest end of the path so far that begins some forbidden word, and a move either leads
//! to the next such state or completes a forbidden word (dead). [`minimize`] then merges the
//! states that refuse the same continuations (a fifth of them for the single-tile metric's
//! machine, a third for the multi-tile metric's on 4x4).
//!
//! Invariant: no forbidden word is a piece of another (the word search never extends a word
//! with a forbidden piece), so a move completes a forbidden word exactly when the longest end
//! of the path it leads to is a whole word; that end is found by following the trie, or the
//! failure links when the trie has no such child.

use super::words::Word;
use std::collections::VecDeque;

/// No such transition (in the trie), or a move that completes a forbidden word (in the machine).
pub const DEAD: u32 = u32::MAX;

/// The machine's transitions over `symbols` symbols: `next[symbols * state + s]` is
/// `symbols *` the next state, or [`DEAD`]. State 0 is the empty path.
pub fn compile(words: &[Word], symbols: usize) -> Vec<u32> {
    let n = symbols;
    // The trie of the words, `n` entries a node: node 0 the empty prefix.
    let mut child: Vec<u32> = vec![DEAD; n];
    let mut whole: Vec<bool> = vec![false];
    for &word in words {
        let mut node = 0;
        for s in word.moves() {
            let at = node * n + usize::from(s);
            if child[at] == DEAD {
                child[at] = whole.len() as u32;
                child.extend(std::iter::repeat_n(DEAD, n));
                whole.push(false);
            }
            node = child[at] as usize;
        }
        whole[node] = true;
    }
    let nodes = whole.len();
    // Breadth first, so that a node's failure (a shorter prefix) is complete before it: the
    // transitions of the whole machine, on trie nodes.
    let mut delta: Vec<u32> = vec![0; nodes * n];
    let mut fail = vec![0u32; nodes];
    let mut queue = VecDeque::new();
    for s in 0..n {
        match child[s] {
            DEAD => delta[s] = 0,
            c => {
                delta[s] = c;
                queue.push_back(c as usize);
            }
        }
    }
    while let Some(node) = queue.pop_front() {
        for s in 0..n {
            let via_failure = delta[fail[node] as usize * n + s];
            match child[node * n + s] {
                DEAD => delta[node * n + s] = via_failure,
                c => {
                    delta[node * n + s] = c;
                    fail[c as usize] = via_failure;
                    queue.push_back(c as usize);
                }
            }
        }
    }
    // The machine's states: the trie's nodes that are not whole words, in trie order.
    let mut number = vec![DEAD; nodes];
    let mut states = 0u32;
    for (node, &is_word) in whole.iter().enumerate() {
        if !is_word {
            number[node] = states;
            states += 1;
        }
    }
    let mut next = Vec::with_capacity(n * states as usize);
    for (node, &is_word) in whole.iter().enumerate() {
        if is_word {
            continue;
        }
        for s in 0..n {
            next.push(match number[delta[node * n + s] as usize] {
                DEAD => DEAD,
                state => n as u32 * state,
            });
        }
    }
    next
}

/// The smallest machine refusing the same paths as `next` (Moore's partition refinement):
/// states that refuse the same continuations are merged. State 0 stays the empty path's.
pub fn minimize(next: &[u32], symbols: usize) -> Vec<u32> {
    let n = symbols;
    let states = next.len() / n;
    // Every state starts in one class; a round splits classes by the classes their moves reach
    // (dead is a class of its own), until no class splits.
    let mut class = vec![0u32; states];
    let mut count = 1;
    loop {
        let mut ids: rustc_hash::FxHashMap<Vec<u32>, u32> = rustc_hash::FxHashMap::default();
        let mut refined = vec![0u32; states];
        for state in 0..states {
            let mut signature = Vec::with_capacity(n + 1);
            signature.push(class[state]);
            for &to in &next[state * n..state * n + n] {
                signature.push(match to {
                    DEAD => DEAD,
                    to => class[to as usize / n],
                });
            }
            let fresh = ids.len() as u32;
            refined[state] = *ids.entry(signature).or_insert(fresh);
        }
        let refined_count = ids.len();
        class = refined;
        if refined_count == count {
            break;
        }
        count = refined_count;
    }
    // Number the classes in order of first appearance, so that the empty path's is 0.
    let mut number = vec![DEAD; count];
    let mut order = Vec::new();
    for (state, &c) in class.iter().enumerate() {
        if number[c as usize] == DEAD {
            number[c as usize] = order.len() as u32;
            order.push(state);
        }
    }
    let mut minimal = Vec::with_capacity(order.len() * n);
    for &state in &order {
        for &to in &next[state * n..state * n + n] {
            minimal.push(match to {
                DEAD => DEAD,
                to => n as u32 * number[class[to as usize / n] as usize],
            });
        }
    }
    minimal
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the machine over `moves`: `None` once a forbidden word is completed.
    fn run(next: &[u32], moves: &[u8]) -> Option<u32> {
        moves.iter().try_fold(0u32, |state, &d| {
            match next[(state + u32::from(d)) as usize] {
                DEAD => None,
                s => Some(s),
            }
        })
    }

    #[test]
    fn a_path_dies_exactly_when_it_ends_in_a_forbidden_word() {
        let words = [
            Word::of(&[0, 2]),
            Word::of(&[1, 3]),
            Word::of(&[0, 1, 1, 0]),
        ];
        let next = compile(&words, 4);
        let minimal = minimize(&next, 4);
        assert!(minimal.len() <= next.len());
        assert!(run(&next, &[0, 2]).is_none());
        assert!(run(&next, &[3, 3, 0, 2]).is_none());
        assert!(run(&next, &[2, 0, 1, 1, 0]).is_none());
        assert!(
            run(&next, &[0, 0, 1, 1, 0]).is_none(),
            "found after a false start"
        );
        assert!(run(&next, &[0, 1, 1, 2, 0, 3]).is_some());
        assert!(run(&next, &[2, 0, 1, 1]).is_some());
        // Every path of up to 8 moves: dead exactly when some word is a piece of it.
        for len in 0..=8u32 {
            for code in 0..(1u32 << (2 * len)) {
                let moves: Vec<u8> = (0..len)
                    .rev()
                    .map(|i| ((code >> (2 * i)) & 3) as u8)
                    .collect();
                let contains = words.iter().any(|w| {
                    let w = w.moves();
                    moves.windows(w.len()).any(|piece| piece == w)
                });
                assert_eq!(run(&next, &moves).is_none(), contains, "{moves:?}");
                assert_eq!(run(&minimal, &moves).is_none(), contains, "{moves:?}");
            }
        }
    }
}
