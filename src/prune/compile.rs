//! Compiles forbidden words into a machine over the blank's directions (Aho & Corasick): a
//! state is the longest end of the path so far that begins some forbidden word, and a move
//! either leads to the next such state or completes a forbidden word (dead).
//!
//! Invariant: no forbidden word is a piece of another (the word search never extends a word
//! with a forbidden piece), so a move completes a forbidden word exactly when the longest end
//! of the path it leads to is a whole word; that end is found by following the trie, or the
//! failure links when the trie has no such child.

use super::words::Word;
use std::collections::VecDeque;

/// No such transition (in the trie), or a move that completes a forbidden word (in the machine).
pub const DEAD: u32 = u32::MAX;

/// The machine's transitions: `next[4 * state + d]` is `4 *` the next state, or [`DEAD`]. State
/// 0 is the empty path.
pub fn compile(words: &[Word]) -> Vec<u32> {
    // The trie of the words: node 0 the empty prefix.
    let mut child: Vec<[u32; 4]> = vec![[DEAD; 4]];
    let mut whole: Vec<bool> = vec![false];
    for &word in words {
        let mut node = 0;
        for d in word.moves() {
            let d = usize::from(d);
            if child[node][d] == DEAD {
                child[node][d] = child.len() as u32;
                child.push([DEAD; 4]);
                whole.push(false);
            }
            node = child[node][d] as usize;
        }
        whole[node] = true;
    }
    // Breadth first, so that a node's failure (a shorter prefix) is complete before it: the
    // transitions of the whole machine, on trie nodes.
    let mut delta: Vec<[u32; 4]> = vec![[0; 4]; child.len()];
    let mut fail = vec![0u32; child.len()];
    let mut queue = VecDeque::new();
    for d in 0..4 {
        match child[0][d] {
            DEAD => delta[0][d] = 0,
            c => {
                delta[0][d] = c;
                queue.push_back(c as usize);
            }
        }
    }
    while let Some(node) = queue.pop_front() {
        for d in 0..4 {
            let via_failure = delta[fail[node] as usize][d];
            match child[node][d] {
                DEAD => delta[node][d] = via_failure,
                c => {
                    delta[node][d] = c;
                    fail[c as usize] = via_failure;
                    queue.push_back(c as usize);
                }
            }
        }
    }
    // The machine's states: the trie's nodes that are not whole words, in trie order.
    let mut number = vec![DEAD; child.len()];
    let mut states = 0u32;
    for (node, &is_word) in whole.iter().enumerate() {
        if !is_word {
            number[node] = states;
            states += 1;
        }
    }
    let mut next = Vec::with_capacity(4 * states as usize);
    for (node, &is_word) in whole.iter().enumerate() {
        if is_word {
            continue;
        }
        for d in 0..4 {
            next.push(match number[delta[node][d] as usize] {
                DEAD => DEAD,
                state => 4 * state,
            });
        }
    }
    next
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
        let next = compile(&words);
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
            }
        }
    }
}
