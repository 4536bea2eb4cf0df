-- One record per choice: the same subject choosing the same image of the same result for the same profile and
-- language is recorded once (`choice`, see `choice_of`). Records made before this have none and stay as they are.

ALTER TABLE disclosures ADD COLUMN choice TEXT;
CREATE UNIQUE INDEX disclosures_by_choice ON disclosures (choice);
