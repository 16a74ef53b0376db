//! MTM solutions as players write them: each move a letter and, above one, a count (`R3 D2 L
//! U`). As in slidy and the speed-solving community, the letter names the direction the
//! *tiles* move (the blank goes the other way): `R3` slides three tiles right, the blank jumps
//! three cells left. The board is the one the user writes, so Korf's convention (Knuth's board
//! turned 180 degrees) turns every letter round. The blank's own directions are available
//! too (`--moves blank`), and a picture of the board after each move (`--moves board`).

use super::moves::{jumps_of, play, Jump};
use crate::notation::{letter, runs_text, steps_of, Mover};
use crate::position::{Convention, Position};

/// One move: its letter and, above one, its count (`R3`, `L`).
pub fn jump_text(jump: Jump, mover: Mover, convention: Convention) -> String {
    let letter = letter(jump.direction, mover, convention);
    if jump.distance == 1 {
        letter.to_string()
    } else {
        format!("{letter}{}", jump.distance)
    }
}

/// The MTM moves of an STM path (tiles pushed) from `start`, separated by spaces.
pub fn moves_text(start: &Position, tiles: &[u8], mover: Mover, convention: Convention) -> String {
    runs_text(&steps_of(start, tiles), mover, convention)
}

/// The board before the first move and after each, every picture after the first headed by
/// the move's number and its players' notation.
pub fn pictures(start: &Position, tiles: &[u8], convention: Convention) -> String {
    let mut position = *start;
    let mut text = start.picture(convention);
    for (i, jump) in jumps_of(start, tiles)
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        if play(&mut position, jump).is_none() {
            break;
        }
        text.push_str(&format!(
            "{}. {}\n{}",
            i + 1,
            jump_text(jump, Mover::Tiles, convention),
            position.picture(convention)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::Direction;
    use crate::mtm::moves::play_all;
    use crate::notation::read;

    #[test]
    fn letters_name_the_tiles_direction() {
        let goal = Position::goal(Board::fifteen());
        let jumps =
            [(Direction::North, 3), (Direction::West, 1)].map(|(direction, distance)| Jump {
                direction,
                distance,
            });
        let (p, tiles) = play_all(&goal, &jumps).expect("on the board");
        // The blank went up three and left one: the tiles went down three and right one.
        assert_eq!(
            moves_text(&goal, &tiles, Mover::Tiles, Convention::Knuth),
            "D3 R"
        );
        assert_eq!(
            moves_text(&goal, &tiles, Mover::Blank, Convention::Knuth),
            "U3 L"
        );
        assert_eq!(
            moves_text(&goal, &tiles, Mover::Tiles, Convention::Korf),
            "U3 L"
        );
        for convention in [Convention::Knuth, Convention::Korf] {
            let text = moves_text(&goal, &tiles, Mover::Tiles, convention);
            let steps = read(&goal, &text, convention, Mover::Tiles).expect("players' notation");
            assert_eq!(crate::notation::play(&goal, &steps), p);
        }
        let drawn = pictures(&goal, &tiles, Convention::Knuth);
        assert!(drawn.contains("1. D3\n"), "{drawn}");
        assert!(
            drawn.ends_with("2. R\n 1  2  .  3\n 5  6  7  4\n 9 10 11  8\n13 14 15 12\n"),
            "{drawn}"
        );
    }
}
