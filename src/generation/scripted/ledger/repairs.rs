//! Breakdowns and repairs (`rare.breakdown`): which devices may break, the
//! one out of order (nobody uses it) and the repair technician's booking.
//! The calendar draws when; the sessions do it.

use crate::ids::Id;

#[derive(Debug, Clone, Default)]
pub(in super::super) struct Repairs {
    /// Devices that may break down, in scene order.
    breakable: Vec<Id>,
    /// A repair booked: (day, device).
    booked: Option<(u32, Id)>,
    /// The device broken down and not yet repaired.
    out_of_order: Option<Id>,
}

impl Repairs {
    pub fn new(breakable: Vec<Id>) -> Self {
        Repairs {
            breakable,
            ..Repairs::default()
        }
    }

    pub fn breakable(&self) -> &[Id] {
        &self.breakable
    }

    /// The device whose repair is booked for `day` or before.
    pub fn booked_by(&self, day: u32) -> Option<Id> {
        self.booked
            .as_ref()
            .filter(|(d, _)| *d <= day)
            .map(|(_, device)| device.clone())
    }

    /// The technician is on today's calendar: the booking is kept.
    pub fn booking_kept(&mut self) {
        self.booked = None;
    }

    /// Whether another device may break: none is waiting for its repair.
    pub fn may_break(&self) -> bool {
        self.booked.is_none() && self.out_of_order.is_none()
    }

    /// The repair of `device` is booked for `day`.
    pub fn book(&mut self, day: u32, device: Id) {
        self.booked = Some((day, device));
    }

    /// `device` stops working.
    pub fn broke(&mut self, device: Id) {
        self.out_of_order = Some(device);
    }

    pub fn out_of_order(&self) -> Option<&Id> {
        self.out_of_order.as_ref()
    }

    /// The device out of order works again.
    pub fn fixed(&mut self) {
        self.out_of_order = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breakdown_waits_for_its_repair() {
        let tv = Id::new("tv_1");
        let mut r = Repairs::new(vec![tv.clone(), Id::new("coffee_machine_1")]);
        assert!(r.may_break() && r.breakable().len() == 2);
        r.book(4, tv.clone());
        r.broke(tv.clone());
        assert!(!r.may_break());
        assert_eq!((r.booked_by(3), r.booked_by(4)), (None, Some(tv.clone())));
        r.booking_kept();
        assert_eq!(r.booked_by(9), None);
        assert_eq!(r.out_of_order(), Some(&tv));
        assert!(!r.may_break(), "not until it is fixed");
        r.fixed();
        assert!(r.may_break() && r.out_of_order().is_none());
    }
}
