//! Roles: what a fixture, device or object is *for* in household life
//! ("cold storage", "hot drinks", "breakfast food"). Generation finds things
//! by role, never by kind name, so a scene that calls its fridge a
//! "refrigerator" still has breakfast. The catalogue (`assets/catalogue.ron`)
//! gives each kind its roles; a scene may also tag an entity explicitly.

use serde::{Deserialize, Serialize};

/// A role the generator relies on. Adding a variant is a contract change:
/// give it to kinds in the catalogue and use it in generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    // Fixtures and devices.
    /// Makes the morning drink; its `drink` enum lists what it makes.
    HotDrinks,
    /// Keeps perishable food (its `In` surface holds it).
    ColdStorage,
    /// Cooks a meal (`power`, often `temperature` and `timer`).
    Cooking,
    /// Washes dishes (`program`).
    DishWashing,
    /// Washes clothes (`program`, `temperature`, `power`).
    Laundry,
    /// Where worn clothes wait for the wash.
    LaundryBasket,
    /// Where what is used up or thrown out waits to be taken out.
    Waste,
    /// Where meals are eaten.
    DiningSurface,
    /// Where food is prepared.
    PrepSurface,
    /// A room light (`power`, `brightness`).
    Light,
    /// A lamp for desk work.
    TaskLight,
    /// The tv (`power`, `volume`).
    Entertainment,
    /// A speaker or radio (`power`).
    Audio,
    /// Sets the temperature (`target`).
    Climate,
    /// Cleans floors on its own (`mode`: cleaning, docked).
    FloorCleaning,
    /// Where the robot charges.
    RobotDock,
    /// Where people wash in the morning and at night.
    Washbasin,
    /// Where towels hang.
    TowelRail,
    /// Where people sit to relax.
    Seating,
    /// A low table by the seating.
    LoungeTable,
    /// Where people work or study.
    WorkDesk,
    /// Where people sleep.
    Sleeping,
    /// Beside a bed, for glasses and phones.
    Bedside,
    /// Where clean clothes are kept.
    ClothesStorage,
    // Objects.
    /// A mug or cup for the morning drink.
    DrinkVessel,
    /// Taken out for breakfast.
    BreakfastFood,
    /// Brought to the sofa in the evening.
    Snack,
    /// Taken every morning.
    Medicine,
    /// Goes through the wash.
    Clothes,
    /// A bath towel: hung on the towel rail when clean.
    BathTowel,
    /// Small things people put down anywhere and tidy away.
    EverydayItem,
    /// Brought to the desk for work.
    WorkGear,
    /// Asked for at the desk later.
    DeskExtra,
    /// A blanket for the sofa.
    Comfort,
    /// Glasses: on the nightstand at night.
    Eyewear,
    /// Spoils when left out of cold storage.
    Perishable,
    /// Goes into the oven for dinner (eggs, butter, cheese).
    Ingredient,
    /// The shopping list: what is finished is written on it (its kind
    /// `writable`), and the shopper crosses off what was bought.
    ShoppingList,
    /// A parcel: starts outside the house and waits on the doorstep until
    /// someone coming home brings it in.
    Delivery,
}

impl Role {
    /// The role's name as written in RON and JSON (`cold_storage`).
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}
